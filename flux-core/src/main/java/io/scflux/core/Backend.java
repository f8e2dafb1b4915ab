/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Optional;

/**
 * Where the arithmetic on row blocks runs: the JVM heap ({@link HostBackend}) or a device. A backend is a transport
 * (blocks uploaded to it, downloaded from it, an account of its buffers) and the kernels it offers for steps
 * ({@link #kernel}); each step declares the kernels it needs and their host form, and keeps the determinism rule
 * itself: every kernel computes the partial of one block, and the partials are merged in block order by the caller.
 *
 * <p>A backend that is not the host may be backed by device buffers; it accounts them in {@link #memory()}. Blocks
 * may stay on it between operations (a {@link ResidentBlock}): {@link #upload} puts a heap block there,
 * {@link #download} brings one back, and a kernel may work on it where it is (concat's re-indexing).
 */
public interface Backend {

    /** A short name for messages and statistics: {@code host}, {@code cuda}. */
    String name();

    /** True for the JVM heap, whose kernels are the reference the others are checked against. */
    boolean isHost();

    /** The bytes this backend holds for its buffers, under its cap. */
    MemoryAccount memory();

    /**
     * The plan target to cut blocks with: {@code requested}, or a smaller one whose blocks fit this backend's
     * buffers under its cap. The host takes any block.
     */
    default PlanTarget target(PlanTarget requested) {
        return requested;
    }

    /**
     * {@code block} (on the heap) as a block resident on this backend, the same rows and entries; the host, whose
     * blocks are on the heap, returns it as it is.
     *
     * @throws IllegalArgumentException when the block is resident on another backend
     */
    RowBlock upload(RowBlock block);

    /**
     * {@code block} with its arrays on the heap: a block resident on this backend is copied down and its arrays freed
     * (the block is consumed); a heap block is returned as it is.
     *
     * @throws IllegalArgumentException when the block is resident on another backend
     */
    RowBlock download(RowBlock block);

    /**
     * This backend's form of a step's kernel: {@code kind} is an interface the step declares (its Gram product, its
     * fused normalize and log1p...), which a backend implements for the steps it accelerates, so that core names no
     * step. Empty when the step runs its host form here, which is what the host does for every kernel. By default the
     * backend itself when it implements {@code kind}.
     *
     * @param kind the kernel's interface
     * @param <K> the kernel's type
     * @return the kernel on this backend, or empty for the step's host form
     */
    default <K> Optional<K> kernel(Class<K> kind) {
        return kind.isInstance(this) ? Optional.of(kind.cast(this)) : Optional.empty();
    }
}
