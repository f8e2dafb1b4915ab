/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The direct buffers that file reads land in before they are decoded into a block's arrays, shared by every reading
 * thread: a read borrows one for its decode and gives it back, so their memory follows the reads in progress, not the
 * number of threads a scheduler has run reads on (a thread-local buffer each stayed with its thread until it died).
 */
final class ReadBuffers {

    /** Reads larger than this get a heap buffer of their own, not kept (a block's arrays are far smaller). */
    private static final int LARGEST = 64 << 20;
    /** Buffers are sized in whole steps, so reads of slightly different sizes share them. */
    private static final int STEP = 1 << 20;
    /**
     * Largest buffer kept once its read is done: a block's arrays (256 KiB each by default, 4 MiB for pseudobulk) fit;
     * a larger read, such as a whole obs column, lets its buffer go, so idle buffers hold at most {@link #KEPT} times
     * this.
     */
    static final int KEPT_LARGEST = 8 << 20;
    /** Idle buffers kept for later reads: more than the reads a machine runs at once. */
    static final int KEPT = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    private static final List<ByteBuffer> IDLE = new ArrayList<>();

    private ReadBuffers() {}

    /** Runs {@code use} on a buffer of {@code bytes} bytes (position 0, limit {@code bytes}) lent for the call. */
    static void lend(int bytes, Consumer<ByteBuffer> use) {
        ByteBuffer b = take(bytes);
        try {
            use.accept(b.clear().limit(bytes));
        } finally {
            giveBack(b);
        }
    }

    /** How many idle buffers are kept now and their bytes ({@code [count, bytes]}): for tests. */
    static synchronized long[] idle() {
        long bytes = 0;
        for (ByteBuffer b : IDLE) {
            bytes += b.capacity();
        }
        return new long[] {IDLE.size(), bytes};
    }

    /** The smallest idle buffer that holds {@code bytes}, else a new one. */
    private static ByteBuffer take(int bytes) {
        if (bytes > LARGEST) {
            return ByteBuffer.allocate(bytes);
        }
        synchronized (ReadBuffers.class) {
            int best = -1;
            for (int i = 0; i < IDLE.size(); i++) {
                int capacity = IDLE.get(i).capacity();
                if (capacity >= bytes && (best < 0 || capacity < IDLE.get(best).capacity())) {
                    best = i;
                }
            }
            if (best >= 0) {
                return IDLE.remove(best);
            }
        }
        return ByteBuffer.allocateDirect(Math.max(STEP, (int) ((bytes + (long) STEP - 1) / STEP * STEP)));
    }

    /**
     * Keeps {@code b} for later reads unless it is larger than {@link #KEPT_LARGEST}; beyond {@link #KEPT} idle
     * buffers, the smallest is let go.
     */
    private static synchronized void giveBack(ByteBuffer b) {
        if (!b.isDirect() || b.capacity() > KEPT_LARGEST) {
            return;
        }
        IDLE.add(b);
        if (IDLE.size() > KEPT) {
            int smallest = 0;
            for (int i = 1; i < IDLE.size(); i++) {
                if (IDLE.get(i).capacity() < IDLE.get(smallest).capacity()) {
                    smallest = i;
                }
            }
            IDLE.remove(smallest);
        }
    }
}
