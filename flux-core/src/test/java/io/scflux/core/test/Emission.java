/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.MemoryAccount;
import io.scflux.core.RowBlock;
import reactor.core.publisher.Flux;

/**
 * The emission axis of the block source scenarios, as reactor-core runs each operator in each fusion mode: blocks of
 * their own ({@code blocks}), or reused buffers that the subscriber gives back after each block ({@code buffers}).
 */
public enum Emission {
    BLOCKS,
    BUFFERS;

    /**
     * The blocks of {@code plan} as this emission delivers them, each as a block of its own: a buffer is copied, then
     * given back at once, as a pass that is done with it would.
     */
    public Flux<RowBlock> blocks(BlockSource source, BlockPlan plan, Execution execution) {
        return blocks(source, plan, execution, MemoryAccount.root("test", Long.MAX_VALUE));
    }

    /** As {@link #blocks(BlockSource, BlockPlan, Execution)}, buffers accounted under {@code account}. */
    public Flux<RowBlock> blocks(BlockSource source, BlockPlan plan, Execution execution, MemoryAccount account) {
        if (this == BLOCKS) {
            return source.blocks(plan, execution);
        }
        return source.buffers(plan, execution, account).map(b -> {
            RowBlock copy = b.copy();
            b.release();
            return copy;
        });
    }
}
