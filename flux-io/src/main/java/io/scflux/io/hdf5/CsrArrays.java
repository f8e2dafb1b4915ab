/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.ScfluxFormatException;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The three arrays of a stored CSR matrix ({@code indptr}, {@code indices}, {@code data}) and how to read any row
 * range of them as a {@link RowBlock}, checking what scipy checks: monotone row pointers within the data, column
 * indices within the shape. Row pointers may be int64; block indices are always int32.
 *
 * <p>Public because the file matrices of the h5ad encoding and the transposed store, above this package, read rows
 * through it.
 */
public final class CsrArrays {

    /** Rows of indptr read at once while planning: 256 KiB of int64, so no array grows with the number of cells. */
    private static final int PLAN_ROWS = 1 << 15;

    private final StoredArray indptr;
    private final StoredArray indices;
    private final StoredArray data;
    private final long nRows;
    private final int nCols;
    private final long nnz;

    private CsrArrays(StoredArray indptr, StoredArray indices, StoredArray data, long nRows, int nCols, long nnz) {
        this.indptr = indptr;
        this.indices = indices;
        this.data = data;
        this.nRows = nRows;
        this.nCols = nCols;
        this.nnz = nnz;
    }

    /**
     * Checks the arrays against the shape: types, lengths, {@code indptr[0] == 0} and
     * {@code indptr[nRows] <= len(data)}, reading those two pointers through {@code s}.
     */
    public static CsrArrays of(
            StoredArray indptr, StoredArray indices, StoredArray data, long nRows, int nCols, Storage s) {
        requireInteger(indptr, "int32 or int64");
        requireInteger(indices, "an integer type");
        if (data.dtype() == DType.STRING) {
            throw data.error("expected numbers, found strings");
        }
        for (StoredArray a : new StoredArray[] {indptr, indices, data}) {
            if (a.dims().length != 1) {
                throw a.error("expected a 1-D dataset, found shape " + java.util.Arrays.toString(a.dims()));
            }
        }
        if (indptr.length() != nRows + 1) {
            throw indptr.error("expected " + (nRows + 1) + " row pointers for " + nRows + " rows (the shape), found "
                    + indptr.length());
        }
        if (indices.length() != data.length()) {
            throw indices.error("has " + indices.length() + " entries but " + data.path() + " has " + data.length());
        }
        long first = pointer(indptr, s, 0);
        long last = pointer(indptr, s, nRows);
        if (first != 0) {
            throw indptr.error("expected indptr[0] == 0, found " + first);
        }
        if (last < 0 || last > data.length()) {
            throw indptr.error("indptr[" + nRows + "] = " + last + " but the data hold " + data.length() + " entries");
        }
        return new CsrArrays(indptr, indices, data, nRows, nCols, last);
    }

    private static void requireInteger(StoredArray a, String expected) {
        if (!a.dtype().isInteger()) {
            throw a.error("expected " + expected + ", found " + a.dtype());
        }
    }

    private static long pointer(StoredArray indptr, Storage s, long row) {
        long[] one = new long[1];
        indptr.read(s, row, 1, b -> Decode.longs(b, indptr.dtype(), one, 0, 1));
        return one[0];
    }

    public long nRows() {
        return nRows;
    }

    public int nCols() {
        return nCols;
    }

    public long nnz() {
        return nnz;
    }

    StoredArray indptr() {
        return indptr;
    }

    public StoredArray indices() {
        return indices;
    }

    public StoredArray data() {
        return data;
    }

    /**
     * Reads {@code count + 1} row pointers from {@code row} and checks they are monotone and within the data: into
     * the first entries of {@code into} when it is long enough, else of a new array.
     */
    long[] pointers(Storage s, long row, int count, long @Nullable [] into) {
        long[] p = into != null && into.length > count ? into : new long[count + 1];
        indptr.read(s, row, count + 1, b -> Decode.longs(b, indptr.dtype(), p, 0, count + 1));
        for (int i = 0; i <= count; i++) {
            if (p[i] < 0 || p[i] > nnz) {
                throw indptr.error("indptr[" + (row + i) + "] = " + p[i] + " outside [0, " + nnz + "]");
            }
            if (i > 0 && p[i] < p[i - 1]) {
                throw indptr.error(
                        "indptr decreases at row " + (row + i - 1) + " (" + p[i - 1] + " then " + p[i] + ")");
            }
        }
        return p;
    }

    public void rowNnz(Storage s, long rowFrom, int count, int[] out) {
        rowNnz(s, rowFrom, count, out, null);
    }

    /** As {@link #rowNnz(Storage, long, int, int[])}, the pointers read into {@code scratch} when it fits them. */
    private void rowNnz(Storage s, long rowFrom, int count, int[] out, long @Nullable [] scratch) {
        long[] p = pointers(s, rowFrom, count, scratch);
        for (int i = 0; i < count; i++) {
            long n = p[i + 1] - p[i];
            if (n > nCols) {
                throw indptr.error(
                        "row " + (rowFrom + i) + " stores " + n + " entries but the matrix has " + nCols + " columns");
            }
            out[i] = (int) n;
        }
    }

    /** The plan of these arrays: indptr read once, in pieces. */
    public BlockPlan plan(Storage s, PlanTarget target) {
        BlockPlan.Builder b = BlockPlan.builder(target);
        int[] counts = new int[(int) Math.min(PLAN_ROWS, Math.max(1, nRows))];
        long[] pointers = new long[counts.length + 1];
        for (long r = 0; r < nRows; r += counts.length) {
            int n = (int) Math.min(counts.length, nRows - r);
            rowNnz(s, r, n, counts, pointers);
            for (int i = 0; i < n; i++) {
                b.addRow(counts[i]);
            }
        }
        return b.build();
    }

    /** Rows {@code [from, to)} as a block: row pointers, then the indices and data they span. */
    public RowBlock read(Storage s, int blockIndex, long from, long to) {
        int rows = rows(from, to);
        long[] p = pointers(s, from, rows, null);
        int n = entries(p, rows, from, to);
        int[] local = new int[rows + 1];
        int[] idx = new int[n];
        float[] val = new float[n];
        ExactValues[] stored = new ExactValues[1];
        decode(s, from, rows, p, local, idx, val, stored);
        return RowBlock.of(blockIndex, from, nCols, local, idx, val).withExact(stored[0]);
    }

    /**
     * As {@link #read}, decoded into {@code into}'s arrays: nothing is allocated for a block that fits them. The
     * values are the floats alone (a buffer is read for arithmetic, never written).
     */
    public void readInto(Storage s, int blockIndex, long from, long to, BlockBuffer into) {
        int rows = rows(from, to);
        long[] p = pointers(s, from, rows, into.longsFor(rows + 1));
        int n = entries(p, rows, from, to);
        decode(s, from, rows, p, into.indptrFor(rows), into.indicesFor(n), into.valuesFor(n), null);
        into.hold(blockIndex, from, rows, nCols);
    }

    /** The number of rows {@code [from, to)}, checked to be rows of the matrix. */
    private int rows(long from, long to) {
        if (from < 0 || to > nRows || from > to) {
            throw new IllegalArgumentException("rows " + from + ".." + to + " outside [0, " + nRows + "]");
        }
        return Math.toIntExact(to - from);
    }

    /**
     * How many entries {@code rows} rows from {@code from} span ({@code p}: their pointers), if one block may hold
     * them.
     */
    private int entries(long[] p, int rows, long from, long to) {
        long count = p[rows] - p[0];
        if (count > PlanTarget.MAX_CHUNK_NNZ) {
            throw new IllegalArgumentException("rows " + from + ".." + to + " hold " + count
                    + " entries, more than one block may (" + PlanTarget.MAX_CHUNK_NNZ + ")");
        }
        return MemoryAccount.host()
                .requireArray(
                        count,
                        Integer.BYTES + Float.BYTES,
                        indices.where() + ": rows " + from + ".." + to + " (their indices and values)");
    }

    /**
     * The local row pointers, column indices (checked against the shape) and values of {@code rows} rows from
     * {@code from} whose pointers are {@code p}, into the first entries of the arrays given; into {@code stored[0]}
     * (unless null) the values as stored where float32 changes some ({@link Decode#exact}).
     */
    private void decode(
            Storage s,
            long from,
            int rows,
            long[] p,
            int[] local,
            int[] idx,
            float[] val,
            ExactValues @Nullable [] stored) {
        long start = p[0];
        int n = (int) (p[rows] - start);
        for (int i = 0; i <= rows; i++) {
            local[i] = (int) (p[i] - start);
        }
        indices.read(s, start, n, b -> Decode.ints(b, indices.dtype(), idx, 0, n));
        for (int r = 0; r < rows; r++) {
            int previous = -1;
            boolean increasing = true;
            for (int k = local[r]; k < local[r + 1]; k++) {
                int c = idx[k];
                if (c < 0 || c >= nCols) {
                    throw badIndex(s, local, k, start, from);
                }
                increasing &= c > previous;
                previous = c;
            }
            if (!increasing) {
                requireDistinct(idx, local[r], local[r + 1], from + r, start);
            }
        }
        data.read(s, start, n, b -> {
            if (Decode.floats(b, data.dtype(), val, 0, n) && stored != null) {
                stored[0] = Decode.exact(b, data.dtype(), val, 0, n);
            }
        });
        s.stats().addBlock();
    }

    /**
     * Fails unless the column indices {@code idx[from, to)} of row {@code row} (entries from {@code start} in the
     * file) are distinct: a repeated column would be summed by scipy, taken twice by the steps, and written back as
     * anndata would not write it. Only rows not sorted strictly come here (anndata writes sorted rows).
     */
    private void requireDistinct(int[] idx, int from, int to, long row, long start) {
        int[] sorted = Arrays.copyOfRange(idx, from, to);
        Arrays.sort(sorted);
        for (int k = 1; k < sorted.length; k++) {
            if (sorted[k] == sorted[k - 1]) {
                throw indices.error("row " + row + " (entries " + (start + from) + ".." + (start + to - 1)
                        + ") holds column " + sorted[k] + " more than once: a CSR row names each column once "
                        + "(scipy's sum_duplicates would add them up)");
            }
        }
    }

    private ScfluxFormatException badIndex(Storage s, int[] local, int k, long start, long from) {
        int row = 0;
        while (local[row + 1] <= k) {
            row++;
        }
        long[] raw = new long[1];
        indices.read(s, start + k, 1, b -> Decode.longs(b, indices.dtype(), raw, 0, 1));
        return indices.error("column index " + raw[0] + " at entry " + (start + k) + " (row " + (from + row)
                + ") outside [0, " + nCols + ")");
    }
}
