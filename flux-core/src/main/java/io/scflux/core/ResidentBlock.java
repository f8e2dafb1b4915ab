/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Objects;

/**
 * A row block whose CSR arrays a backend holds (device memory), as its {@link Backend#upload} and kernels return it:
 * it carries the block's shape, and its arrays reach the heap only through that backend's {@link Backend#download}.
 * The value type, {@link RowBlock}, knows nothing of backends; this is where a block's home is known.
 */
public final class ResidentBlock extends RowBlock {

    private final ResidentArrays arrays;

    private ResidentBlock(int blockIndex, long rowStart, int nRows, int nCols, int nnz, ResidentArrays arrays) {
        super(blockIndex, rowStart, nRows, nCols, nnz);
        this.arrays = Objects.requireNonNull(arrays, "arrays");
    }

    /** A block of {@code nRows} rows and {@code nnz} entries whose arrays are {@code arrays}. */
    public static ResidentBlock of(
            int blockIndex, long rowStart, int nRows, int nCols, int nnz, ResidentArrays arrays) {
        return new ResidentBlock(blockIndex, rowStart, nRows, nCols, nnz, arrays);
    }

    /** The arrays the backend holds. */
    public ResidentArrays arrays() {
        return arrays;
    }

    /** The backend whose memory holds the arrays. */
    public Backend backend() {
        return arrays.backend();
    }

    @Override
    public ResidentBlock relocate(int newBlockIndex, long newRowStart) {
        return new ResidentBlock(newBlockIndex, newRowStart, nRows(), nCols(), nnz(), arrays);
    }

    /** The bytes of the arrays, as the backend's {@link io.scflux.core.MemoryAccount} counts them. */
    @Override
    public long sizeInBytes() {
        return arrays.bytes();
    }

    /** The same shape and position over the same arrays. */
    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((ResidentBlock) o).arrays == arrays;
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + System.identityHashCode(arrays);
    }

    @Override
    public String toString() {
        return super.toString() + " resident on " + arrays.backend().name();
    }
}
