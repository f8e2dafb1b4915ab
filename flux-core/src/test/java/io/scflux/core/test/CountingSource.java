/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockSource;
import io.scflux.core.ForwardingSource;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a source to count readers opened and closed and blocks read, and optionally to fail the read of one block:
 * what demand, cancellation and error scenarios observe.
 */
public final class CountingSource extends ForwardingSource {

    private final int failAt;
    private final Object cacheKey;
    public final AtomicInteger opened = new AtomicInteger();
    public final AtomicInteger closed = new AtomicInteger();
    public final AtomicInteger reads = new AtomicInteger();

    private CountingSource(BlockSource delegate, int failAt, Object cacheKey) {
        super(delegate);
        this.failAt = failAt;
        this.cacheKey = cacheKey;
    }

    public static CountingSource of(BlockSource delegate) {
        return new CountingSource(delegate, -1, null);
    }

    /** Counts reads of {@code delegate} and identifies its data by {@code cacheKey}, as a file does. */
    public static CountingSource keyed(BlockSource delegate, Object cacheKey) {
        return new CountingSource(delegate, -1, cacheKey);
    }

    /** Fails the read of block {@code blockIndex} with an {@link IllegalStateException} "injected failure". */
    public static CountingSource failingAt(BlockSource delegate, int blockIndex) {
        return new CountingSource(delegate, blockIndex, null);
    }

    @Override
    public Object cacheKey() {
        return cacheKey;
    }

    private void count(int blockIndex) {
        reads.incrementAndGet();
        if (blockIndex == failAt) {
            throw new IllegalStateException("injected failure at block " + blockIndex);
        }
    }

    @Override
    public RowReader open() {
        RowReader r = delegate().open();
        opened.incrementAndGet();
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                count(blockIndex);
                return r.read(blockIndex, from, to);
            }

            @Override
            public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
                count(blockIndex);
                r.readInto(blockIndex, from, to, into);
            }

            @Override
            public void close() {
                closed.incrementAndGet();
                r.close();
            }
        };
    }
}
