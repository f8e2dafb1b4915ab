/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The leading eigenpairs by Lanczos equal EJML's full symmetric decomposition, for full and rank-deficient matrices. */
class LanczosEigenTest {

    /** A covariance-like p x p matrix X'X / n of n random rows, whose last {@code zeroColumns} columns are zero. */
    private static double[] covariance(int p, int n, int zeroColumns, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] x = new double[n * p];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < p - zeroColumns; j++) {
                x[i * p + j] = rnd.nextGaussian() * (1 + 10.0 / (1 + j));
            }
        }
        double[] c = new double[p * p];
        for (int a = 0; a < p; a++) {
            for (int b = 0; b < p; b++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += x[i * p + a] * x[i * p + b];
                }
                c[a * p + b] = s / n;
            }
        }
        return c;
    }

    @ParameterizedTest(name = "p={0} k={1} zero columns={2}")
    @CsvSource({"60, 10, 0", "120, 30, 0", "80, 80, 0", "90, 20, 30", "40, 35, 20"})
    void matchesTheFullDecomposition(int p, int k, int zeroColumns) {
        double[] c = covariance(p, 3 * p, zeroColumns, p * 31L + k);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(p, true, true);
        eig.decompose(DMatrixRMaj.wrap(p, p, c.clone()));
        Integer[] order = new Integer[p];
        Arrays.setAll(order, i -> i);
        Arrays.sort(
                order,
                (x, y) -> Double.compare(
                        eig.getEigenvalue(y).getReal(), eig.getEigenvalue(x).getReal()));
        LanczosEigen.Pairs top = LanczosEigen.top(c, p, k);
        double largest = eig.getEigenvalue(order[0]).getReal();
        for (int j = 0; j < k; j++) {
            double expected = eig.getEigenvalue(order[j]).getReal();
            assertEquals(expected, top.values()[j], 1e-9 * largest, "eigenvalue " + j);
            double gap = Math.min(
                    j == 0 ? Double.MAX_VALUE : eig.getEigenvalue(order[j - 1]).getReal() - expected,
                    j + 1 == p
                            ? Double.MAX_VALUE
                            : expected - eig.getEigenvalue(order[j + 1]).getReal());
            if (gap > 1e-6 * largest) {
                double[] v = eig.getEigenVector(order[j]).data;
                double dot = 0;
                for (int a = 0; a < p; a++) {
                    dot += v[a] * top.vectors()[a * k + j];
                }
                assertEquals(1, Math.abs(dot), 1e-7, "eigenvector " + j + " (up to sign)");
            }
        }
        assertArrayEquals(top.values(), LanczosEigen.top(c, p, k).values(), "the same bits on every call");
    }
}
