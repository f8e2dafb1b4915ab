/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.ForwardingSource;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import reactor.core.publisher.Flux;

/**
 * A test source over another one that runs a hook before each block is read (to fail, block or look around) and
 * records how far the subscriber's demand ran ahead of the blocks delivered.
 */
final class ScriptedSource extends ForwardingSource {

    private final IntConsumer beforeRead;
    private final AtomicLong requested = new AtomicLong();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong maxAhead = new AtomicLong();

    ScriptedSource(BlockSource base, IntConsumer beforeRead) {
        super(base);
        this.beforeRead = beforeRead;
    }

    @Override
    public RowReader open() {
        RowReader reader = delegate().open();
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                beforeRead.accept(blockIndex);
                return reader.read(blockIndex, from, to);
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    @Override
    public Flux<RowBlock> blocks(BlockPlan plan, Execution execution) {
        return super.blocks(plan, execution)
                .doOnNext(b -> delivered.incrementAndGet())
                .doOnRequest(n -> {
                    long total = n == Long.MAX_VALUE ? Long.MAX_VALUE : requested.addAndGet(n);
                    maxAhead.accumulateAndGet(total == Long.MAX_VALUE ? total : total - delivered.get(), Math::max);
                });
    }

    /** The most blocks ever requested but not yet delivered (Long.MAX_VALUE after an unbounded request). */
    long maxRequestedAhead() {
        return maxAhead.get();
    }

    long delivered() {
        return delivered.get();
    }
}
