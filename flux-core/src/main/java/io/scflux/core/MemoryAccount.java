/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Bytes reserved for buffers, as Arrow's allocator counts them: a named account with a cap, its reserved bytes and
 * their peak, and child accounts whose reservations also count (and are capped) in every ancestor. A reservation that
 * would take an account over its cap is refused before anything is allocated, with a message naming the account.
 *
 * <p>The process's host memory is one such tree, {@link #host()}, capped at the memory budget: the one mechanism by
 * which scflux refuses, before allocating, what would not fit (a size a file declares, a block, an accumulator).
 *
 * <p>Thread-safe: reservations and releases of a tree are serialized on its root.
 */
public final class MemoryAccount implements AutoCloseable {

    private static final MemoryAccount HOST = new MemoryAccount("host", MemoryAccount::budget, null);
    private static volatile long hostBudget;

    private final String name;
    private final LongSupplier cap;
    private final @Nullable MemoryAccount parent;
    private final Object lock;
    private final List<MemoryAccount> children = new ArrayList<>();
    private long reserved;
    private long peak;
    private boolean closed;

    private MemoryAccount(String name, LongSupplier cap, @Nullable MemoryAccount parent) {
        this.name = name;
        this.cap = cap;
        this.parent = parent;
        this.lock = parent == null ? new Object() : parent.lock;
    }

    private static LongSupplier constant(String name, long cap) {
        if (cap < 0) {
            throw new IllegalArgumentException("account '" + name + "': negative cap " + cap);
        }
        return () -> cap;
    }

    /** A top-level account of at most {@code cap} bytes ({@link Long#MAX_VALUE} for none). */
    public static MemoryAccount root(String name, long cap) {
        return new MemoryAccount(name, constant(name, cap), null);
    }

    /**
     * The process's host memory, capped at the memory budget: half the JVM's maximum heap (reading an array often
     * takes a second copy of its bytes), or the budget an edge set ({@link #useHostBudget}), read at each check.
     */
    public static MemoryAccount host() {
        return HOST;
    }

    /**
     * Caps {@link #host} at {@code bytes} from now on (0: half the JVM's maximum heap, the default): called by an edge,
     * with its {@link Settings#memoryBudgetBytes}, before it runs anything. One cap per process, since every run in a
     * JVM shares its heap.
     *
     * @param bytes the budget, or 0
     */
    public static void useHostBudget(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative memory budget " + bytes);
        }
        hostBudget = bytes;
    }

    private static long budget() {
        long configured = hostBudget;
        return configured > 0 ? configured : Runtime.getRuntime().maxMemory() / 2;
    }

    /** A child account named {@code parent/name}, capped at {@code cap} bytes and by every ancestor's cap. */
    public MemoryAccount child(String childName, long childCap) {
        synchronized (lock) {
            checkOpen();
            MemoryAccount c =
                    new MemoryAccount(name + "/" + childName, constant(name + "/" + childName, childCap), this);
            children.add(c);
            return c;
        }
    }

    /**
     * Reserves {@code bytes} in this account and its ancestors.
     *
     * @throws MemoryBudgetExceededException when any of them would go over its cap; nothing is reserved then
     */
    public void reserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("account '" + name + "': cannot reserve " + bytes + " bytes");
        }
        synchronized (lock) {
            checkOpen();
            for (MemoryAccount a = this; a != null; a = a.parent) {
                long aCap = a.cap();
                if (bytes > aCap - a.reserved) {
                    throw new MemoryBudgetExceededException("account '" + a.name + "': reserving " + bytes(bytes)
                            + (a == this ? "" : " for '" + name + "'") + " would hold "
                            + bytes(a.reserved + bytes) + ", above its cap of " + bytes(aCap)
                            + " (" + bytes(a.reserved) + " reserved)");
                }
            }
            for (MemoryAccount a = this; a != null; a = a.parent) {
                a.reserved += bytes;
                a.peak = Math.max(a.peak, a.reserved);
            }
        }
    }

    /**
     * Checks that one array of {@code count} elements of {@code elementBytes} bytes each could be held under the cap
     * of this account and of each ancestor, with nothing else reserved, and in one Java array; {@code what} names it
     * (with file and HDF5 path when a file declared its size). Returns the count as an int. Reserves nothing: for
     * arrays whose life the account does not follow (metadata read once, a pass's accumulators).
     *
     * @throws MemoryBudgetExceededException before anything is allocated, when it could not
     */
    public int requireArray(long count, int elementBytes, String what) {
        long bytes;
        try {
            bytes = Math.multiplyExact(Math.max(0, count), (long) elementBytes);
        } catch (ArithmeticException e) {
            bytes = Long.MAX_VALUE;
        }
        MemoryAccount tightest = tightest();
        long limit = tightest.cap();
        if (count < 0 || bytes > limit || count > Integer.MAX_VALUE - 8) {
            throw new MemoryBudgetExceededException(what + " would need " + mib(bytes) + " (" + count
                    + " elements) in one array, more than " + limit(tightest) + "; refusing it before allocating");
        }
        return (int) count;
    }

    /**
     * Checks that {@code bytes} held at once, in several arrays (a pass's accumulators and what is computed from
     * them), could be held under the cap of this account and of each ancestor, with nothing else reserved; reserves
     * nothing. For work whose size is known before it starts: it is refused then, not met by an
     * {@link OutOfMemoryError} halfway.
     *
     * @param bytes the most bytes the work holds at once
     * @param what  the work and what its bytes are, for the message
     * @throws MemoryBudgetExceededException before anything is allocated, when they could not
     */
    public void require(long bytes, String what) {
        MemoryAccount tightest = tightest();
        if (bytes > tightest.cap()) {
            throw new MemoryBudgetExceededException(what + " would need " + mib(bytes) + " at once, more than "
                    + limit(tightest) + "; refusing it before allocating");
        }
    }

    /** This account or the ancestor with the smallest cap. */
    private MemoryAccount tightest() {
        MemoryAccount tightest = this;
        for (MemoryAccount a = parent; a != null; a = a.parent) {
            if (a.cap() < tightest.cap()) {
                tightest = a;
            }
        }
        return tightest;
    }

    /** The cap of {@code a} in words, with how to raise the process's. */
    private static String limit(MemoryAccount a) {
        return a == HOST
                ? "the memory budget of " + mib(a.cap()) + " (java -Xmx or -Dscflux.memory.budget.mb)"
                : "the cap of account '" + a.name + "', " + mib(a.cap());
    }

    /** Gives back {@code bytes} reserved earlier in this account. */
    public void release(long bytes) {
        synchronized (lock) {
            if (bytes < 0 || bytes > reserved) {
                throw new IllegalStateException(
                        "account '" + name + "': releasing " + bytes + " bytes, but " + reserved + " are reserved");
            }
            for (MemoryAccount a = this; a != null; a = a.parent) {
                a.reserved -= bytes;
            }
        }
    }

    public String name() {
        return name;
    }

    /** The most bytes this account may hold ({@link Long#MAX_VALUE} for no cap). */
    public long cap() {
        return cap.getAsLong();
    }

    /** Bytes held now, children included. */
    public long reserved() {
        synchronized (lock) {
            return reserved;
        }
    }

    /** The most bytes held at once since the account was made, children included. */
    public long peak() {
        synchronized (lock) {
            return peak;
        }
    }

    /** The child accounts still open. */
    public List<MemoryAccount> children() {
        synchronized (lock) {
            return List.copyOf(children);
        }
    }

    /**
     * Closes this account, which must hold nothing (its buffers freed): a leak is an error, as in Arrow. Closing twice
     * does nothing.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            if (reserved != 0) {
                throw new IllegalStateException("account '" + name + "' closed while holding " + bytes(reserved));
            }
            closed = true;
            if (parent != null) {
                parent.children.remove(this);
            }
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("account '" + name + "' is closed");
        }
    }

    /** {@code n} bytes in words: {@code 268435456 bytes (256.0 MiB)}. */
    static String bytes(long n) {
        if (n == Long.MAX_VALUE) {
            return "unlimited";
        }
        return n + " bytes (" + mib(n) + ")";
    }

    /** {@code n} bytes in MiB, or in bytes below one MiB. */
    private static String mib(long n) {
        return n == Long.MAX_VALUE
                ? "more than 8 EiB"
                : n < 1 << 20 ? n + " bytes" : String.format(Locale.ROOT, "%.1f MiB", n / 1048576.0);
    }

    @Override
    public String toString() {
        return "MemoryAccount[" + name + ", reserved " + reserved() + ", peak " + peak() + ", cap " + cap() + "]";
    }
}
