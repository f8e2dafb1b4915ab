/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * Rows {@code [rowStart, rowStart + nRows)} of a sparse matrix in CSR form, the unit that flows through a
 * {@code Flux<RowBlock>}. Its local {@code indptr} starts at 0 and its indices are int32: a block holds fewer than
 * 2^31 nonzeros by construction, whatever the file's index type.
 *
 * <p>The arrays are exposed without copying so that hot loops run on primitives. A block is immutable by contract:
 * a stage that changes values returns a new block ({@link #withValues}) and never writes into the arrays it received.
 *
 * <p>Values are float32, what the steps compute in. Where the file stores values float32 would change (int32 past
 * 2^24, float64), a block read from it also carries them as stored ({@link #exact()}): operations that move values
 * without computing new ones (relocating, stacking, a filter's gather) keep them, so that a write of unchanged values
 * stores the file's own; {@link #withValues} drops them.
 *
 * <p>A block knows nothing of where arithmetic runs: a block whose arrays a device holds is a subclass owned by the
 * backend package ({@code ResidentBlock}), which carries the shape alone here and has no heap arrays until its backend
 * downloads it.
 */
public class RowBlock {

    /**
     * The float whose bits mark a filled entry when {@link #moved} follows positions: 2^30, the first bits past every
     * entry a block may hold ({@code PlanTarget.MAX_CHUNK_NNZ}), and not zero, so a move fills with it.
     */
    private static final int FILLED = 1 << 30;

    private final int blockIndex;
    private final long rowStart;
    private final int nRows;
    private final int nCols;
    private final int @Nullable [] indptr;
    private final int @Nullable [] indices;
    private final float @Nullable [] values;
    private final int nnz;
    /** The stored values where float32 changes some of them, else null ({@link ExactValues}). */
    private final @Nullable ExactValues exact;

    private RowBlock(
            int blockIndex,
            long rowStart,
            int nCols,
            int[] indptr,
            int[] indices,
            float[] values,
            @Nullable ExactValues exact) {
        this(blockIndex, rowStart, indptr.length - 1, nCols, indptr[indptr.length - 1], indptr, indices, values, exact);
    }

    private RowBlock(
            int blockIndex,
            long rowStart,
            int nRows,
            int nCols,
            int nnz,
            int @Nullable [] indptr,
            int @Nullable [] indices,
            float @Nullable [] values,
            @Nullable ExactValues exact) {
        this.blockIndex = blockIndex;
        this.rowStart = rowStart;
        this.nRows = nRows;
        this.nCols = nCols;
        this.nnz = nnz;
        this.indptr = indptr;
        this.indices = indices;
        this.values = values;
        this.exact = exact;
    }

    /**
     * The shape of a block whose arrays are held off the heap, for the backend package's resident block, which
     * overrides {@link #relocate}, {@link #sizeInBytes}, {@code equals} and {@code hashCode} for its arrays.
     */
    protected RowBlock(int blockIndex, long rowStart, int nRows, int nCols, int nnz) {
        this(blockIndex, rowStart, nRows, nCols, nnz, null, null, null, null);
        if (blockIndex < 0 || rowStart < 0 || nRows < 0 || nCols < 0 || nnz < 0) {
            throw new IllegalArgumentException("negative blockIndex, rowStart, nRows, nCols or nnz: " + blockIndex
                    + ", " + rowStart + ", " + nRows + ", " + nCols + ", " + nnz);
        }
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
            throw new IllegalArgumentException(
                    "negative blockIndex, rowStart or nCols: " + blockIndex + ", " + rowStart + ", " + nCols);
        }
        if (indptr.length == 0 || indptr[0] != 0) {
            throw new IllegalArgumentException("block indptr must start at 0");
        }
        int nnz = indptr[indptr.length - 1];
        if (indices.length != nnz || values.length != nnz) {
            throw new IllegalArgumentException("block indptr ends at " + nnz + " but indices has " + indices.length
                    + " and values " + values.length + " entries");
        }
        return new RowBlock(blockIndex, rowStart, nCols, indptr, indices, values, null);
    }

    /**
     * The rows of {@code blocks} (heap blocks of {@code nCols} columns), in order, as one block numbered
     * {@code blockIndex} from row {@code rowStart}: their arrays copied once into arrays of the total's size.
     *
     * @param blocks the blocks, in row order
     * @param blockIndex the joined block's index
     * @param rowStart the joined block's first row
     * @param nCols the blocks' columns
     * @param dtype the stored type of the joined values, which holds each block's: their exact values' type
     * @return the joined block
     */
    public static RowBlock stack(List<RowBlock> blocks, int blockIndex, long rowStart, int nCols, DType dtype) {
        int rows = 0;
        long nnz = 0;
        for (RowBlock b : blocks) {
            rows += b.nRows();
            nnz += b.nnz();
        }
        int[] indptr = new int[rows + 1];
        int[] indices = new int[Math.toIntExact(nnz)];
        float[] values = new float[indices.length];
        int row = 0;
        int at = 0;
        for (RowBlock b : blocks) {
            int[] p = b.indptr();
            for (int r = 1; r <= b.nRows(); r++) {
                indptr[row + r] = at + p[r];
            }
            System.arraycopy(b.indices(), 0, indices, at, b.nnz());
            System.arraycopy(b.values(), 0, values, at, b.nnz());
            row += b.nRows();
            at += b.nnz();
        }
        ExactValues exact = null;
        if (ExactValues.mayLose(dtype)) {
            List<@Nullable ExactValues> stored = new ArrayList<>(blocks.size());
            List<float[]> floats = new ArrayList<>(blocks.size());
            int[] lengths = new int[blocks.size()];
            for (int i = 0; i < lengths.length; i++) {
                RowBlock b = blocks.get(i);
                stored.add(b.exact());
                floats.add(b.values());
                lengths[i] = b.nnz();
            }
            exact = ExactValues.join(stored, floats, lengths, dtype);
        }
        return new RowBlock(blockIndex, rowStart, nCols, indptr, indices, values, exact);
    }

    /** An empty block of {@code nRows} rows. */
    public static RowBlock empty(int blockIndex, long rowStart, int nRows, int nCols) {
        return new RowBlock(blockIndex, rowStart, nCols, new int[nRows + 1], new int[0], new float[0], null);
    }

    /**
     * The same rows and sparsity pattern with other values (shares indptr and indices): new values, computed, so
     * without the stored ones ({@link #exact()}).
     */
    public final RowBlock withValues(float[] newValues) {
        if (newValues.length != values().length) {
            throw new IllegalArgumentException("expected " + values().length + " values, got " + newValues.length);
        }
        return new RowBlock(blockIndex, rowStart, nCols, indptr(), indices(), newValues, null);
    }

    /**
     * The same block holding {@code stored}, the values as stored where its float values are not exactly them.
     *
     * @param stored one stored value per entry, or null when the float values are exact
     * @return the block with them
     */
    public final RowBlock withExact(@Nullable ExactValues stored) {
        if (stored != null && stored.length() != nnz) {
            throw new IllegalArgumentException("expected " + nnz + " stored values, got " + stored.length());
        }
        return new RowBlock(blockIndex, rowStart, nRows, nCols, nnz, indptr(), indices(), values(), stored);
    }

    /**
     * {@code move}, an operation that moves values without computing or looking at them (a filter's gather, a
     * re-indexing onto other columns, a sort of each row by column), applied to this heap block with {@code fill} for
     * any entry it adds, keeping the stored values ({@link #exact()}) where it has them. The move runs a second time,
     * then, on the entries' positions, each held as a float's bits (never NaN, as positions are below 2^30, so every
     * float operation moves them unchanged), and the stored values are gathered from where the positions went.
     *
     * @param fill the value of an entry the move adds
     * @param move the operation, given a block and the fill
     * @return what {@code move} gives for this block, with the stored values of its entries
     */
    public final RowBlock moved(float fill, BiFunction<RowBlock, Float, RowBlock> move) {
        RowBlock out = move.apply(this, fill);
        if (exact == null) {
            return out;
        }
        float[] positions = new float[nnz];
        for (int k = 0; k < positions.length; k++) {
            positions[k] = Float.intBitsToFloat(k);
        }
        float[] moved =
                move.apply(withValues(positions), Float.intBitsToFloat(FILLED)).values();
        int[] from = new int[moved.length];
        for (int k = 0; k < from.length; k++) {
            int p = Float.floatToRawIntBits(moved[k]);
            from[k] = p == FILLED ? -1 : p;
        }
        return out.withExact(exact.gather(from, from.length, fill));
    }

    /** The same content under another block index and first row (used when sources are concatenated or subset). */
    public RowBlock relocate(int newBlockIndex, long newRowStart) {
        return new RowBlock(newBlockIndex, newRowStart, nRows, nCols, nnz, indptr, indices, values, exact);
    }

    /**
     * The values as the file stores them, where float32 would change some of them: null when {@link #values()}
     * holds them exactly (nearly always), and after any step that computes values.
     *
     * @return the stored values, or null
     */
    public final @Nullable ExactValues exact() {
        return exact;
    }

    public final int blockIndex() {
        return blockIndex;
    }

    public final long rowStart() {
        return rowStart;
    }

    public final long rowEnd() {
        return rowStart + nRows;
    }

    public final int nRows() {
        return nRows;
    }

    public final int nCols() {
        return nCols;
    }

    public final int nnz() {
        return nnz;
    }

    /** Local row pointers, {@code nRows + 1} entries starting at 0. Not a copy. */
    public final int[] indptr() {
        return onHeap(indptr);
    }

    /** Column index of each stored entry. Not a copy. */
    public final int[] indices() {
        return onHeap(indices);
    }

    /** Value of each stored entry. Not a copy. */
    public final float[] values() {
        return onHeap(values);
    }

    private <T> T onHeap(@Nullable T array) {
        if (array == null) {
            throw new IllegalStateException(this + ": its arrays reach the heap only through its backend's download");
        }
        return array;
    }

    /** Bytes held by the three arrays, on the heap or on its backend (what a cache weighs and an allocator accounts). */
    public long sizeInBytes() {
        return 4L * (indptr().length + indices().length + values().length) + (exact == null ? 0 : exact.sizeInBytes());
    }

    /** Same rows, columns and entries (block index and position included). For tests and caches, not hot paths. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        RowBlock b = (RowBlock) o;
        return blockIndex == b.blockIndex
                && rowStart == b.rowStart
                && nCols == b.nCols
                && nRows == b.nRows
                && nnz == b.nnz
                && Arrays.equals(indptr, b.indptr)
                && Arrays.equals(indices, b.indices)
                && Arrays.equals(values, b.values)
                && Objects.equals(exact, b.exact);
    }

    @Override
    public int hashCode() {
        int h = Objects.hash(blockIndex, rowStart, nCols, nRows, nnz);
        h = 31 * h + Arrays.hashCode(indptr);
        h = 31 * h + Arrays.hashCode(indices);
        return 31 * (31 * h + Arrays.hashCode(values)) + Objects.hashCode(exact);
    }

    @Override
    public String toString() {
        return "RowBlock#" + blockIndex + "[rows " + rowStart + ".." + rowEnd() + ", " + nCols + " cols, nnz " + nnz
                + "]";
    }
}
