package io.scflux.core;

import java.util.ArrayList;
import java.util.List;

/**
 * Bytes reserved for buffers, as Arrow's allocator counts them: a named account with a cap, its reserved bytes and
 * their peak, and child accounts whose reservations also count (and are capped) in every ancestor. A reservation that
 * would take an account over its cap is refused before anything is allocated, with a message naming the account.
 *
 * <p>Thread-safe: reservations and releases of a tree are serialized on its root.
 */
public final class MemoryAccount implements AutoCloseable {

    private final String name;
    private final long cap;
    private final MemoryAccount parent;
    private final Object lock;
    private final List<MemoryAccount> children = new ArrayList<>();
    private long reserved;
    private long peak;
    private boolean closed;

    private MemoryAccount(String name, long cap, MemoryAccount parent) {
        if (cap < 0) {
            throw new IllegalArgumentException("account '" + name + "': negative cap " + cap);
        }
        this.name = name;
        this.cap = cap;
        this.parent = parent;
        this.lock = parent == null ? new Object() : parent.lock;
    }

    /** A top-level account of at most {@code cap} bytes ({@link Long#MAX_VALUE} for none). */
    public static MemoryAccount root(String name, long cap) {
        return new MemoryAccount(name, cap, null);
    }

    /** A child account named {@code parent/name}, capped at {@code cap} bytes and by every ancestor's cap. */
    public MemoryAccount child(String childName, long childCap) {
        synchronized (lock) {
            checkOpen();
            MemoryAccount c = new MemoryAccount(name + "/" + childName, childCap, this);
            children.add(c);
            return c;
        }
    }

    /**
     * Reserves {@code bytes} in this account and its ancestors.
     *
     * @throws MemoryCapException when any of them would go over its cap; nothing is reserved then
     */
    public void reserve(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("account '" + name + "': cannot reserve " + bytes + " bytes");
        }
        synchronized (lock) {
            checkOpen();
            for (MemoryAccount a = this; a != null; a = a.parent) {
                if (bytes > a.cap - a.reserved) {
                    throw new MemoryCapException("account '" + a.name + "': reserving " + bytes(bytes)
                            + (a == this ? "" : " for '" + name + "'") + " would hold "
                            + bytes(a.reserved + bytes) + ", above its cap of " + bytes(a.cap)
                            + " (" + bytes(a.reserved) + " reserved)");
                }
            }
            for (MemoryAccount a = this; a != null; a = a.parent) {
                a.reserved += bytes;
                a.peak = Math.max(a.peak, a.reserved);
            }
        }
    }

    /** Gives back {@code bytes} reserved earlier in this account. */
    public void release(long bytes) {
        synchronized (lock) {
            if (bytes < 0 || bytes > reserved) {
                throw new IllegalStateException("account '" + name + "': releasing " + bytes + " bytes, but "
                        + reserved + " are reserved");
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
        return cap;
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
        return n + " bytes (" + String.format(java.util.Locale.ROOT, "%.1f MiB", n / 1048576.0) + ")";
    }

    @Override
    public String toString() {
        return "MemoryAccount[" + name + ", reserved " + reserved() + ", peak " + peak() + ", cap " + cap + "]";
    }
}
