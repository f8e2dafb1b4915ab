/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lets a cancellation close a reader while other threads are still inside {@link #read} or {@link #readInto}: the
 * underlying reader is closed by whichever comes last, the close call or the last read in flight, exactly once.
 */
final class GuardedReader implements RowReader {

    private static final int CLOSED = 1;
    private static final int ONE_READ = 2;

    private final RowReader delegate;
    /** Reads in flight times two, plus the CLOSED bit. */
    private final AtomicInteger state = new AtomicInteger();

    GuardedReader(RowReader delegate) {
        this.delegate = delegate;
    }

    @Override
    public RowBlock read(int blockIndex, long from, long to) {
        enter();
        try {
            return delegate.read(blockIndex, from, to);
        } finally {
            leave();
        }
    }

    @Override
    public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
        enter();
        try {
            delegate.readInto(blockIndex, from, to, into);
        } finally {
            leave();
        }
    }

    /** Counts a read in, unless the reader is closed. */
    private void enter() {
        for (; ; ) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                throw new CancellationException("reader closed");
            }
            if (state.compareAndSet(s, s + ONE_READ)) {
                return;
            }
        }
    }

    /** Counts a read out, closing the underlying reader when it was the last one in flight after a close. */
    private void leave() {
        if (state.addAndGet(-ONE_READ) == CLOSED) {
            delegate.close();
        }
    }

    /** Whether {@link #close} was called: reads then fail with a {@link CancellationException}. */
    boolean isClosed() {
        return (state.get() & CLOSED) != 0;
    }

    @Override
    public void close() {
        for (; ; ) {
            int s = state.get();
            if ((s & CLOSED) != 0) {
                return;
            }
            if (state.compareAndSet(s, s | CLOSED)) {
                if (s == 0) {
                    delegate.close();
                }
                return;
            }
        }
    }
}
