/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The buffers of one pass of {@link BlockSource#buffers}: lent to its reads and given back by its consumer, each made
 * for the plan's largest block, so a pass holds as many as it has blocks in flight. Their bytes are held in an
 * account of their own under {@code parent} (Arrow's way: reserved when made or grown, all released at close).
 */
final class BlockBuffers implements BlockBuffer.Pool, AutoCloseable {

    /** The name of each pass's account, under the account it is opened in. */
    static final String ACCOUNT = "block-buffers";

    private final int rows;
    private final int entries;
    private final MemoryAccount account;
    private final ArrayDeque<BlockBuffer> idle = new ArrayDeque<>();
    private final Set<BlockBuffer> lent = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    BlockBuffers(BlockPlan plan, MemoryAccount parent) {
        this.rows = plan.maxBlockRows();
        this.entries = parent.requireArray(
                plan.maxBlockNnz(), Integer.BYTES + Float.BYTES, "a buffer for the largest block of " + plan);
        this.account = parent.child(ACCOUNT, Long.MAX_VALUE);
    }

    @Override
    public MemoryAccount account() {
        return account;
    }

    /** An idle buffer, else a new one (reserved in the account), made outside the lock. */
    BlockBuffer take() {
        synchronized (this) {
            BlockBuffer b = idle.poll();
            if (b != null) {
                lent.add(b);
                return b;
            }
        }
        BlockBuffer b = new BlockBuffer(this, rows, entries);
        synchronized (this) {
            if (!closed) { // a read that started as the pass was cancelled: its buffer is dropped when given back
                account.reserve(b.bytes());
                lent.add(b);
            }
        }
        return b;
    }

    /**
     * Takes {@code b} back for a later read, or drops it once the pass has ended; giving back a buffer that is not
     * out is an error, as releasing twice is in Netty.
     */
    @Override
    public synchronized void giveBack(BlockBuffer b) {
        if (closed) {
            return;
        }
        if (!lent.remove(b)) {
            throw new IllegalStateException(b + " released twice");
        }
        idle.push(b);
    }

    /** Accounts {@code bytes} more, a lent buffer having grown its arrays for a block larger than planned. */
    @Override
    public synchronized void grew(long bytes) {
        if (!closed) {
            account.reserve(bytes);
        }
    }

    /** Ends the pass: its buffers are let go (one still out is dropped when given back) and the account closed. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        idle.clear();
        lent.clear();
        account.release(account.reserved());
        account.close();
    }
}
