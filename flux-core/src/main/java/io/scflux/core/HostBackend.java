/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * The JVM heap, where every step runs its kernels' host form, the reference a device's results are checked against
 * ({@link #kernel} is empty for every kind). Its blocks live on the heap, so its account holds nothing. Serialized (a reducer or a
 * stage shipped to another JVM), it stands for that JVM's host backend.
 */
public final class HostBackend implements Backend, java.io.Serializable {

    public static final HostBackend INSTANCE = new HostBackend();

    private HostBackend() {}

    /** What a serialized host backend is: the receiving JVM's own. */
    private Object readResolve() {
        return INSTANCE;
    }

    @Override
    public String name() {
        return "host";
    }

    @Override
    public boolean isHost() {
        return true;
    }

    @Override
    public MemoryAccount memory() {
        return MemoryAccount.host();
    }

    /** A heap block as it is: the host's blocks are on the heap. */
    @Override
    public RowBlock upload(RowBlock block) {
        return onHeap(block);
    }

    @Override
    public RowBlock download(RowBlock block) {
        return onHeap(block);
    }

    private static RowBlock onHeap(RowBlock block) {
        if (block instanceof ResidentBlock r) {
            throw new IllegalArgumentException(block + ": the host cannot take a block resident on "
                    + r.backend().name() + "; that backend downloads it");
        }
        return block;
    }

    @Override
    public String toString() {
        return "HostBackend";
    }
}
