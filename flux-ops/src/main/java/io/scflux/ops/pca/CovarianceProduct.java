/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;

/**
 * One pass of the randomized solver: the covariance matrix times a block of vectors, {@code Xc^T (Xc Q) / (n - 1)}
 * with {@code Xc} the column-centred matrix, without forming {@code Xc}. Each row's {@code (x - mean) Q} is taken
 * from its stored entries and {@code mean Q}; {@code X^T B} and the column sums of {@code B} are summed in
 * the {@link Reducer}'s fixed order, and the centring of the left factor is applied once at the end.
 */
final class CovarianceProduct implements Reducer<double[]> {

    private final int p;
    private final int l;
    private final double[] q;
    private final double[] mean;
    private final double[] meanQ;

    /** {@code q}: {@code p x l}, row-major; {@code mean}: the column means. */
    CovarianceProduct(double[] q, int l, double[] mean) {
        this.p = mean.length;
        this.l = l;
        this.q = q;
        this.mean = mean;
        meanQ = new double[l];
        for (int a = 0; a < p; a++) {
            for (int j = 0; j < l; j++) {
                meanQ[j] += mean[a] * q[a * l + j];
            }
        }
    }

    /** {@code X^T B} in {@code [0, p * l)}, then the column sums of {@code B} in {@code [p * l, p * l + l)}. */
    @Override
    public double[] identity() {
        return new double[p * l + l];
    }

    @Override
    public double[] fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public double[] foldInto(double[] z, RowBlock block) {
        double[] b = new double[l];
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        for (int r = 0; r < block.nRows(); r++) {
            for (int j = 0; j < l; j++) {
                b[j] = -meanQ[j];
            }
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                double v = values[i];
                int base = indices[i] * l;
                for (int j = 0; j < l; j++) {
                    b[j] += v * q[base + j];
                }
            }
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                double v = values[i];
                int base = indices[i] * l;
                for (int j = 0; j < l; j++) {
                    z[base + j] += v * b[j];
                }
            }
            for (int j = 0; j < l; j++) {
                z[p * l + j] += b[j];
            }
        }
        return z;
    }

    @Override
    public double[] merge(double[] earlier, double[] later) {
        for (int i = 0; i < earlier.length; i++) {
            earlier[i] += later[i];
        }
        return earlier;
    }

    /** The product {@code Xc^T Xc Q / (n - 1)} ({@code p x l}, row-major) from the merged sums of {@code n} rows. */
    double[] product(double[] sums, long n) {
        double[] z = new double[p * l];
        for (int a = 0; a < p; a++) {
            for (int j = 0; j < l; j++) {
                z[a * l + j] = (sums[a * l + j] - mean[a] * sums[p * l + j]) / (n - 1);
            }
        }
        return z;
    }
}
