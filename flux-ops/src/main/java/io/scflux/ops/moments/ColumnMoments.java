/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.moments;

import io.scflux.core.Backend;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;

/**
 * Per-column sums and sums of squares in float64, summed in the {@link Reducer}'s fixed order: the means and variances
 * that scale divides by and that centre the randomized PCA. Squares of float32 data are taken in float32 and summed in
 * float64, as scanpy's numba kernel does ({@code value * value} on the float32 data). Each block is added by the
 * backend's {@link ColumnSumsKernel}.
 *
 * <p>Public because scale and PCA, each in its own package, both reduce X to these moments.
 */
public final class ColumnMoments implements Reducer<ColumnMoments.Sums> {

    private final int nCols;
    private final boolean float32Squares;
    private final Backend backend;

    /** Moments of {@code nCols} columns on {@code backend}; {@code float32Squares} when the data are float32. */
    public ColumnMoments(int nCols, boolean float32Squares, Backend backend) {
        this.nCols = nCols;
        this.float32Squares = float32Squares;
        this.backend = backend;
    }

    /** The sums of a run of blocks. */
    public static final class Sums implements java.io.Serializable {
        private final double[] sum;
        private final double[] squares;

        private Sums(int nCols) {
            sum = new double[nCols];
            squares = new double[nCols];
        }

        /** Column means over {@code n} rows. */
        public double[] means(long n) {
            double[] mean = new double[sum.length];
            for (int c = 0; c < mean.length; c++) {
                mean[c] = sum[c] / n;
            }
            return mean;
        }

        /**
         * Column variances over {@code n} rows as scanpy computes them: {@code squares / n - mean^2}, made unbiased
         * by the factor {@code n / (n - 1)} (unless n is 1).
         */
        public double[] variances(long n) {
            double[] var = new double[sum.length];
            double unbiased = n == 1 ? 1 : (double) n / (n - 1);
            for (int c = 0; c < var.length; c++) {
                double mean = sum[c] / n;
                var[c] = (squares[c] / n - mean * mean) * unbiased;
            }
            return var;
        }
    }

    @Override
    public Sums identity() {
        return new Sums(nCols);
    }

    @Override
    public Sums fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public Sums foldInto(Sums acc, RowBlock block) {
        HostColumnSums.on(backend).columnSums(block, float32Squares, acc.sum, acc.squares);
        return acc;
    }

    @Override
    public Sums merge(Sums earlier, Sums later) {
        for (int c = 0; c < nCols; c++) {
            earlier.sum[c] += later.sum[c];
            earlier.squares[c] += later.squares[c];
        }
        return earlier;
    }
}
