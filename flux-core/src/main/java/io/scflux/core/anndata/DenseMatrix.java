/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.util.Arrays;
import java.util.Objects;

/**
 * A dense float64 matrix held in memory, row-major: a result that is small and dense by nature (pseudobulk profiles,
 * their proportions). It says {@link #isDense()}, and a writer stores its float64 values ({@link #values}) as the 2-D
 * array anndata would; its blocks, like a dense file's, hold the entries that are not zero as float32.
 */
public final class DenseMatrix implements BlockSource {

    private final int nRows;
    private final int nCols;
    private final double[] values;

    private DenseMatrix(int nRows, int nCols, double[] values) {
        this.nRows = nRows;
        this.nCols = nCols;
        this.values = values;
    }

    /** The {@code nRows x nCols} matrix over {@code values} in row-major order (not copied). */
    public static DenseMatrix of(int nRows, int nCols, double[] values) {
        Objects.requireNonNull(values, "values");
        if (nRows < 0 || nCols < 0 || (long) nRows * nCols != values.length) {
            throw new IllegalArgumentException(
                    nRows + " x " + nCols + " needs " + (long) nRows * nCols + " values, got " + values.length);
        }
        return new DenseMatrix(nRows, nCols, values);
    }

    @Override
    public long nRows() {
        return nRows;
    }

    @Override
    public int nCols() {
        return nCols;
    }

    @Override
    public DType dtype() {
        return DType.FLOAT64;
    }

    @Override
    public boolean isDense() {
        return true;
    }

    /** The values as a 2-D float64 array over the same memory (not copied): what a writer stores. */
    public DenseArray values() {
        return DenseArray.of(DType.FLOAT64, values, nRows, nCols);
    }

    /** The float64 value at {@code (row, col)}. */
    public double get(int row, int col) {
        Objects.checkIndex(row, nRows);
        Objects.checkIndex(col, nCols);
        return values[row * nCols + col];
    }

    /** Every row may hold {@code nCols} entries: the plan weighs rows as a dense file's plan does. */
    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        Arrays.fill(out, 0, count, nCols);
    }

    @Override
    public RowReader open() {
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                return block(blockIndex, Math.toIntExact(from), Math.toIntExact(to));
            }

            @Override
            public void close() {}
        };
    }

    /** Rows {@code [from, to)} keeping every entry that is not zero ({@code != 0}, so NaN is kept). */
    private RowBlock block(int blockIndex, int from, int to) {
        int begin = from * nCols;
        int end = to * nCols;
        int nnz = 0;
        for (int k = begin; k < end; k++) {
            nnz += values[k] != 0 ? 1 : 0;
        }
        int[] indptr = new int[to - from + 1];
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int at = 0;
        for (int r = from; r < to; r++) {
            int base = r * nCols;
            for (int c = 0; c < nCols; c++) {
                double v = values[base + c];
                if (v != 0) {
                    idx[at] = c;
                    val[at++] = (float) v;
                }
            }
            indptr[r - from + 1] = at;
        }
        return RowBlock.of(blockIndex, from, nCols, indptr, idx, val);
    }

    @Override
    public String describe() {
        return "DenseMatrix[" + nRows + " x " + nCols + "]";
    }
}
