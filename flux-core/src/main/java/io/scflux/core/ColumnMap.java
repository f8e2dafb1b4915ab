/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Where one input's columns go in a concatenation: {@code to[c]} is the output column of input column {@code c}, or
 * -1 where an inner join drops it. Output columns the input lacks ({@code missing}) are filled with the fill value
 * when it is not zero, as anndata pads an outer join; a column selection picks columns with it (PCA's projection of
 * the selected genes). A backend may re-index resident blocks with it where they are (concat's re-indexing kernel);
 * {@link #reindex} is the host's code, the reference.
 */
public final class ColumnMap implements java.io.Serializable {

    private final int[] to;
    private final int[] missing;
    private final int nOut;
    private final boolean keepsOrder;

    private ColumnMap(int[] to, int[] missing, int nOut, boolean keepsOrder) {
        this.to = to;
        this.missing = missing;
        this.nOut = nOut;
        this.keepsOrder = keepsOrder;
    }

    /**
     * The map of {@code to} (copied) onto {@code nOut} output columns, or null when it is the identity. Fails when an
     * entry is outside {@code [-1, nOut)} or two input columns go to the same output column.
     */
    public static @Nullable ColumnMap of(int[] to, int nOut, String input) {
        boolean identity = to.length == nOut;
        boolean keepsOrder = true;
        boolean[] hit = new boolean[nOut];
        int last = -1;
        int kept = 0;
        for (int c = 0; c < to.length; c++) {
            int o = to[c];
            identity &= o == c;
            if (o == -1) {
                continue;
            }
            if (o < -1 || o >= nOut) {
                throw new IllegalArgumentException(
                        input + ": column " + c + " maps to " + o + ", outside [-1, " + nOut + ")");
            }
            if (hit[o]) {
                throw new IllegalArgumentException(input + ": two columns map to output column " + o);
            }
            hit[o] = true;
            keepsOrder &= o > last;
            last = o;
            kept++;
        }
        if (identity) {
            return null;
        }
        int[] missing = new int[nOut - kept];
        int m = 0;
        for (int o = 0; o < nOut; o++) {
            if (!hit[o]) {
                missing[m++] = o;
            }
        }
        return new ColumnMap(to.clone(), missing, nOut, keepsOrder);
    }

    /** Number of input columns. */
    public int nIn() {
        return to.length;
    }

    /** Number of output columns. */
    public int nOut() {
        return nOut;
    }

    /** The output column of each input column, -1 where it is dropped (a copy). */
    public int[] columns() {
        return to.clone();
    }

    /** Output columns the input lacks, ascending (a copy). */
    public int[] missing() {
        return missing.clone();
    }

    /** Number of output columns the input lacks. */
    public int missingCount() {
        return missing.length;
    }

    /**
     * True when kept columns keep their order (an input's sorted row stays sorted, and filled columns are merged in);
     * else every re-indexed row is sorted.
     */
    public boolean keepsOrder() {
        return keepsOrder;
    }

    /**
     * The host's re-indexing of the heap block {@code b}: its rows re-indexed onto {@link #nOut()} columns, with
     * {@code fill} at the missing columns unless it is zero (as the same block and position).
     */
    public RowBlock reindex(RowBlock b, float fill) {
        return b.moved(fill, this::remap);
    }

    private RowBlock remap(RowBlock b, float fill) {
        int rows = b.nRows();
        int filled = fill != 0 ? missing.length : 0;
        int nnz = kept(b.indices(), 0, b.nnz()) + rows * filled;
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int[] indptr = new int[rows + 1];
        int[] p = b.indptr();
        RowSorter sorter = new RowSorter();
        for (int r = 0; r < rows; r++) {
            indptr[r + 1] = remapRow(b.indices(), b.values(), p[r], p[r + 1], idx, val, indptr[r], fill, sorter);
        }
        return RowBlock.of(b.blockIndex(), b.rowStart(), nOut, indptr, idx, val);
    }

    /** Entries of {@code indices[from, to)} whose column is kept. */
    private int kept(int[] indices, int from, int to) {
        int n = 0;
        for (int k = from; k < to; k++) {
            if (this.to[indices[k]] >= 0) {
                n++;
            }
        }
        return n;
    }

    /**
     * Writes the row {@code [from, to)} of {@code idx}/{@code val}, re-indexed, at {@code at} of {@code outIdx}/
     * {@code outVal}, plus {@code fill} at every missing column when it is not zero, sorted by column (merged when the
     * map keeps the input's order, else by {@code sorter}). Returns the end of the written row.
     */
    private int remapRow(
            int[] idx,
            float[] val,
            int from,
            int to,
            int[] outIdx,
            float[] outVal,
            int at,
            float fill,
            RowSorter sorter) {
        int n = at;
        for (int k = from; k < to; k++) {
            int o = this.to[idx[k]];
            if (o >= 0) {
                outIdx[n] = o;
                outVal[n++] = val[k];
            }
        }
        boolean filled = fill != 0 && missing.length > 0;
        if (!keepsOrder) {
            if (filled) {
                System.arraycopy(missing, 0, outIdx, n, missing.length);
                Arrays.fill(outVal, n, n + missing.length, fill);
                n += missing.length;
            }
            sorter.sort(outIdx, outVal, at, n);
            return n;
        }
        if (!filled) {
            return n;
        }
        int end = n + missing.length;
        int k = n - 1;
        int w = end - 1;
        for (int m = missing.length - 1; m >= 0; w--) {
            if (k >= at && outIdx[k] > missing[m]) {
                outIdx[w] = outIdx[k];
                outVal[w] = outVal[k--];
            } else {
                outIdx[w] = missing[m--];
                outVal[w] = fill;
            }
        }
        return end;
    }

    /** The map as an immutable value for a cache key. */
    public Object key() {
        return java.nio.IntBuffer.wrap(to).asReadOnlyBuffer();
    }
}
