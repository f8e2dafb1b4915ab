/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.Backend;
import io.scflux.core.MemoryAccount;
import io.scflux.core.ResidentArrays;
import io.scflux.core.ResidentBlock;
import io.scflux.core.RowBlock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * A test double device whose blocks are resident (their heap arrays hidden behind {@link ResidentArrays}, accounted
 * in its {@link MemoryAccount}) and which records every upload, download and re-index, as {@code "upload 0-12"}
 * (the rows of the block). A resident block used after it was consumed (downloaded, re-indexed), or a heap block
 * handed to its re-indexing, fails the test: that is how a test sees that blocks stayed resident and were owned once.
 */
public final class RecordingBackend implements Backend {

    private final String name;
    private final MemoryAccount memory;
    /** Every call, in order. */
    public final List<String> calls = new CopyOnWriteArrayList<>();

    private final Map<Class<?>, Object> kernels = new ConcurrentHashMap<>();

    public RecordingBackend(String name) {
        this.name = name;
        this.memory = MemoryAccount.root(name, Long.MAX_VALUE);
    }

    /** The recorded calls of {@code kind} ({@code upload}, {@code download}, {@code reindex}). */
    public long count(String kind) {
        return calls.stream().filter(c -> c.startsWith(kind + " ")).count();
    }

    /** A block's arrays on the heap, hidden from its holder. */
    private final class Hidden implements ResidentArrays {
        private final long bytes;
        private RowBlock block;

        Hidden(RowBlock block) {
            this.block = block;
            this.bytes = block.sizeInBytes();
            memory.reserve(bytes);
        }

        @Override
        public Backend backend() {
            return RecordingBackend.this;
        }

        @Override
        public long bytes() {
            return bytes;
        }

        /** The hidden arrays, given up: a second take fails. */
        synchronized RowBlock take() {
            if (block == null) {
                throw new IllegalStateException("a block resident on " + name + " used after it was consumed");
            }
            RowBlock b = block;
            block = null;
            memory.release(bytes);
            return b;
        }
    }

    private static String rows(RowBlock b) {
        return b.rowStart() + "-" + b.rowEnd();
    }

    /** The heap arrays of {@code b}, resident here, as the same block and position; consumed. */
    private RowBlock take(RowBlock b) {
        if (!(b instanceof ResidentBlock r && r.arrays() instanceof Hidden h) || h.backend() != this) {
            throw new IllegalArgumentException(b + " is not resident on " + name);
        }
        return h.take().relocate(b.blockIndex(), b.rowStart());
    }

    private RowBlock hide(RowBlock b) {
        return ResidentBlock.of(b.blockIndex(), b.rowStart(), b.nRows(), b.nCols(), b.nnz(), new Hidden(b));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isHost() {
        return false;
    }

    @Override
    public MemoryAccount memory() {
        return memory;
    }

    @Override
    public RowBlock upload(RowBlock block) {
        if (block instanceof ResidentBlock) {
            throw new IllegalArgumentException(block + " is resident already");
        }
        calls.add("upload " + rows(block));
        return hide(block);
    }

    @Override
    public RowBlock download(RowBlock block) {
        if (!(block instanceof ResidentBlock)) {
            return block;
        }
        calls.add("download " + rows(block));
        return take(block);
    }

    /**
     * This backend offering {@code kernel} as its form of {@code kind}, a step's kernel interface (none by default).
     *
     * @param kind the kernel's interface
     * @param kernel its form here
     * @param <K> the kernel's type
     * @return this backend
     */
    public <K> RecordingBackend offering(Class<K> kind, K kernel) {
        kernels.put(kind, kernel);
        return this;
    }

    /**
     * Records {@code kernel}'s call on the resident {@code block} and runs {@code op}, the host's code, on its hidden
     * arrays (consuming it), the result resident here: a heap block here is a caller's mistake.
     *
     * @param kernel the call's name, as {@link #count} counts it
     * @param block a block resident here
     * @param op the host's code
     * @return the result, resident here
     */
    public RowBlock onArrays(String kernel, RowBlock block, UnaryOperator<RowBlock> op) {
        calls.add(kernel + " " + rows(block));
        return hide(op.apply(take(block)));
    }

    @Override
    public <K> Optional<K> kernel(Class<K> kind) {
        return Optional.ofNullable(kernels.get(kind)).map(kind::cast);
    }

    @Override
    public String toString() {
        return "RecordingBackend[" + name + "]";
    }
}
