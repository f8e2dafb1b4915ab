package io.scflux.core;

import io.scflux.core.backend.Backend;
import io.scflux.core.backend.HostBackend;
import io.scflux.core.backend.ResidentArrays;
import java.util.Arrays;
import java.util.Objects;

/**
 * Rows {@code [rowStart, rowStart + nRows)} of a sparse matrix in CSR form, the unit that flows through a
 * {@code Flux<RowBlock>}. Its local {@code indptr} starts at 0 and its indices are int32: a block holds fewer than
 * 2^31 nonzeros by construction, whatever the file's index type.
 *
 * <p>The arrays are exposed without copying so that hot loops run on primitives. A block is immutable by contract:
 * a stage that changes values returns a new block ({@link #withValues}) and never writes into the arrays it received.
 *
 * <p>A block may be resident on a backend instead ({@link #resident(int, long, int, int, int, ResidentArrays)}): it
 * then carries its shape and the backend's arrays, and has no heap arrays until that backend downloads it.
 */
public final class RowBlock {

    private final int blockIndex;
    private final long rowStart;
    private final int nRows;
    private final int nCols;
    private final int[] indptr;
    private final int[] indices;
    private final float[] values;
    private final int nnz;
    private final ResidentArrays resident;

    private RowBlock(int blockIndex, long rowStart, int nCols, int[] indptr, int[] indices, float[] values) {
        this(blockIndex, rowStart, indptr.length - 1, nCols, indptr[indptr.length - 1], indptr, indices, values, null);
    }

    private RowBlock(int blockIndex, long rowStart, int nRows, int nCols, int nnz, int[] indptr, int[] indices,
                     float[] values, ResidentArrays resident) {
        this.blockIndex = blockIndex;
        this.rowStart = rowStart;
        this.nRows = nRows;
        this.nCols = nCols;
        this.nnz = nnz;
        this.indptr = indptr;
        this.indices = indices;
        this.values = values;
        this.resident = resident;
    }

    /**
     * A block over the given arrays (not copied). Checks the shape invariants that are cheap to check: array lengths,
     * {@code indptr[0] == 0} and {@code indptr[nRows] == nnz}. Column indices are validated by whoever decodes them.
     */
    public static RowBlock of(int blockIndex, long rowStart, int nCols, int[] indptr, int[] indices, float[] values) {
        Objects.requireNonNull(indptr, "indptr");
        Objects.requireNonNull(indices, "indices");
        Objects.requireNonNull(values, "values");
        if (blockIndex < 0 || rowStart < 0 || nCols < 0) {
            throw new IllegalArgumentException("negative blockIndex, rowStart or nCols: "
                    + blockIndex + ", " + rowStart + ", " + nCols);
        }
        if (indptr.length == 0 || indptr[0] != 0) {
            throw new IllegalArgumentException("block indptr must start at 0");
        }
        int nnz = indptr[indptr.length - 1];
        if (indices.length != nnz || values.length != nnz) {
            throw new IllegalArgumentException("block indptr ends at " + nnz + " but indices has " + indices.length
                    + " and values " + values.length + " entries");
        }
        return new RowBlock(blockIndex, rowStart, nCols, indptr, indices, values);
    }

    /**
     * A block of {@code nRows} rows and {@code nnz} entries whose arrays are {@code arrays}, held by
     * {@code arrays.backend()}: what a backend's {@link Backend#upload} and kernels return.
     */
    public static RowBlock resident(int blockIndex, long rowStart, int nRows, int nCols, int nnz,
                                    ResidentArrays arrays) {
        Objects.requireNonNull(arrays, "arrays");
        if (blockIndex < 0 || rowStart < 0 || nRows < 0 || nCols < 0 || nnz < 0) {
            throw new IllegalArgumentException("negative blockIndex, rowStart, nRows, nCols or nnz: " + blockIndex
                    + ", " + rowStart + ", " + nRows + ", " + nCols + ", " + nnz);
        }
        return new RowBlock(blockIndex, rowStart, nRows, nCols, nnz, null, null, null, arrays);
    }

    /** An empty block of {@code nRows} rows. */
    public static RowBlock empty(int blockIndex, long rowStart, int nRows, int nCols) {
        return new RowBlock(blockIndex, rowStart, nCols, new int[nRows + 1], new int[0], new float[0]);
    }

    /** The same rows and sparsity pattern with other values (shares indptr and indices). */
    public RowBlock withValues(float[] newValues) {
        if (newValues.length != values().length) {
            throw new IllegalArgumentException("expected " + values.length + " values, got " + newValues.length);
        }
        return new RowBlock(blockIndex, rowStart, nCols, indptr, indices, newValues);
    }

    /** The same content under another block index and first row (used when sources are concatenated or subset). */
    public RowBlock relocate(int newBlockIndex, long newRowStart) {
        return new RowBlock(newBlockIndex, newRowStart, nRows, nCols, nnz, indptr, indices, values, resident);
    }

    public int blockIndex() {
        return blockIndex;
    }

    public long rowStart() {
        return rowStart;
    }

    public long rowEnd() {
        return rowStart + nRows;
    }

    public int nRows() {
        return nRows;
    }

    public int nCols() {
        return nCols;
    }

    public int nnz() {
        return nnz;
    }

    /** The backend whose memory holds the arrays: the host unless the block is {@link #resident()}. */
    public Backend backend() {
        return resident == null ? HostBackend.INSTANCE : resident.backend();
    }

    /** The arrays a backend holds for this block, or null when they are on the heap. */
    public ResidentArrays resident() {
        return resident;
    }

    /** Local row pointers, {@code nRows + 1} entries starting at 0. Not a copy. */
    public int[] indptr() {
        onHeap();
        return indptr;
    }

    /** Column index of each stored entry. Not a copy. */
    public int[] indices() {
        onHeap();
        return indices;
    }

    /** Value of each stored entry. Not a copy. */
    public float[] values() {
        onHeap();
        return values;
    }

    private void onHeap() {
        if (resident != null) {
            throw new IllegalStateException(this + " is resident on " + resident.backend().name()
                    + ": its arrays reach the heap only through that backend's download");
        }
    }

    /** Bytes held by the three arrays, on the heap or on its backend (what a cache weighs and an allocator accounts). */
    public long sizeInBytes() {
        return resident != null ? resident.bytes() : 4L * (indptr.length + indices.length + values.length);
    }

    /** Same rows, columns and entries (block index and position included). For tests and caches, not hot paths. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof RowBlock)) {
            return false;
        }
        RowBlock b = (RowBlock) o;
        return blockIndex == b.blockIndex && rowStart == b.rowStart && nCols == b.nCols && nRows == b.nRows
                && resident == b.resident && Arrays.equals(indptr, b.indptr) && Arrays.equals(indices, b.indices)
                && Arrays.equals(values, b.values);
    }

    @Override
    public int hashCode() {
        int h = Objects.hash(blockIndex, rowStart, nCols, nRows, resident);
        h = 31 * h + Arrays.hashCode(indptr);
        h = 31 * h + Arrays.hashCode(indices);
        return 31 * h + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "RowBlock#" + blockIndex + "[rows " + rowStart + ".." + rowEnd() + ", " + nCols + " cols, nnz "
                + nnz + (resident == null ? "" : ", on " + resident.backend().name()) + "]";
    }
}
