/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LoessTest {

    // Cleveland's gas data (NOx against the equivalence ratio E, 22 engines), the example of netlib's dloess; the
    // expected values are dloess's own output as published with its test suite (R's loess and scikit-misc print the
    // same), rounded to 6 decimals.
    private static final double[] E = {
        0.831, 1.045, 1.021, 0.970, 0.825, 0.891, 0.71, 0.801, 1.074, 1.148, 1.000, 0.928, 0.767, 0.701, 0.807, 0.902,
        0.997, 1.224, 1.089, 0.973, 0.980, 0.665
    };
    private static final double[] NOX = {
        4.818, 2.849, 3.275, 4.691, 4.255, 5.064, 2.118, 4.602, 2.286, 0.970, 3.965, 5.344, 3.834, 1.990, 5.199, 5.283,
        3.752, 0.537, 1.640, 5.055, 4.937, 1.561
    };

    @Test
    void gasFittedValuesAreDloess() {
        assertClose(
                new double[] {
                    4.883437, 2.927639, 3.572746, 4.710510, 4.815363, 5.196193, 2.512832, 4.474939, 2.149797, 0.990044,
                    4.089353, 5.303627, 3.864174, 2.267121, 4.575636, 5.240293, 4.154036, 0.523682, 1.853026, 4.659184,
                    4.521148, 1.196414
                },
                Loess.interpolate(E, NOX, 2.0 / 3, 2).at(E),
                5e-7);
        assertClose(
                new double[] {
                    4.892690, 3.362733, 3.728575, 4.489023, 4.831715, 5.177112, 2.535887, 4.530370, 2.873000, 1.453502,
                    4.059136, 5.052650, 3.943568, 2.265232, 4.614320, 5.163913, 4.107184, -0.276342, 2.604373, 4.445040,
                    4.351615, 1.051719
                },
                Loess.interpolate(E, NOX, 1.0, 2).at(E),
                5e-7);
    }

    @Test
    void gasPredictionsBetweenVerticesAreDloess() {
        Loess.Surface gas = Loess.interpolate(E, NOX, 2.0 / 3, 2);
        assertClose(new double[] {1.196414, 5.068747, 0.523682}, gas.at(new double[] {0.665, 0.949, 1.224}), 5e-7);
        assertClose(
                new double[] {1.196414, 3.679498, 5.055708, 5.135260, 3.143656, 1.196932, 0.523682},
                gas.at(new double[] {0.6650000, 0.7581667, 0.8513333, 0.9445000, 1.0376667, 1.1308333, 1.2240000}),
                5e-7);
    }

    @Test
    void directFitsAreTheWeightedLeastSquaresPolynomial() {
        SplittableRandom rnd = new SplittableRandom(3);
        double[] x = new double[300];
        double[] y = new double[300];
        for (int i = 0; i < x.length; i++) {
            x[i] = rnd.nextDouble(-3, 1);
            y[i] = Math.sin(2 * x[i]) + 0.3 * rnd.nextGaussian();
        }
        double[] at = {-2.9, -1.234, 0, 0.5, 0.99};
        for (int degree = 0; degree <= 2; degree++) {
            double[] expected = new double[at.length];
            for (int i = 0; i < at.length; i++) {
                expected[i] = localPolynomial(x, y, 0.3, degree, at[i]);
            }
            assertClose(expected, Loess.direct(x, y, 0.3, degree, at), 1e-10);
        }
    }

    @Test
    void theSurfaceReproducesAQuadraticExactly() {
        // local quadratics fit a quadratic exactly, and the cubic Hermite interpolant of its values and slopes is
        // the quadratic again: any error in the tree, the vertex slopes or the interpolation shows here
        SplittableRandom rnd = new SplittableRandom(5);
        double[] x = new double[2000];
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = rnd.nextDouble(-3, 2);
            y[i] = 0.5 - 1.5 * x[i] + 0.7 * x[i] * x[i];
        }
        assertClose(y, Loess.interpolate(x, y, 0.3, 2).at(x), 1e-9);
    }

    @Test
    void interpolationStaysCloseToTheDirectFitOnSmoothData() {
        SplittableRandom rnd = new SplittableRandom(7);
        double[] x = new double[2000];
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = rnd.nextDouble(-3, 2);
            y[i] = Math.sin(1.5 * x[i]);
        }
        double[] direct = Loess.direct(x, y, 0.3, 2, x);
        double[] interpolated = Loess.interpolate(x, y, 0.3, 2).at(x);
        double worst = 0;
        for (int i = 0; i < x.length; i++) {
            worst = Math.max(worst, Math.abs(direct[i] - interpolated[i]));
        }
        // cells hold at most 2000 * 0.3 * 0.2 = 120 points, about 1/16 of the range; between vertices the cubic
        // departs from the direct fit by up to 2e-3 here (the direct surface is not a cubic), against an amplitude of 1
        assertEquals(0, worst, 5e-3);
    }

    @Test
    void tiedPredictorValuesStayInOneCell() {
        double[] x = new double[400];
        double[] y = new double[400];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % 10;
            y[i] = 2 + 0.25 * x[i] - 0.1 * x[i] * x[i];
        }
        double[] fit = Loess.interpolate(x, y, 0.5, 2).at(x);
        assertClose(y, fit, 1e-9);
    }

    @Test
    void aSpanTooSmallIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Loess.interpolate(E, NOX, 0.1, 2));
        assertThrows(IllegalArgumentException.class, () -> Loess.interpolate(E, NOX, 0, 2));
        double[] same = new double[50];
        Arrays.fill(same, 1.0);
        assertThrows(IllegalArgumentException.class, () -> Loess.interpolate(same, same, 0.3, 2));
    }

    /** Tricube-weighted least squares over the {@code floor(n * span)} nearest points, by normal equations. */
    private static double localPolynomial(double[] x, double[] y, double span, int degree, double q) {
        int n = x.length;
        int nf = (int) Math.floor(n * span + 1e-5);
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = Math.abs(x[i] - q);
        }
        double[] sorted = d.clone();
        Arrays.sort(sorted);
        double h = sorted[nf - 1];
        int k = degree + 1;
        double[][] a = new double[k][k + 1];
        for (int i = 0; i < n; i++) {
            if (d[i] >= h) {
                continue;
            }
            double u = d[i] / h;
            double w = Math.pow(1 - u * u * u, 3);
            for (int r = 0; r < k; r++) {
                for (int c = 0; c < k; c++) {
                    a[r][c] += w * Math.pow(x[i] - q, r + c);
                }
                a[r][k] += w * Math.pow(x[i] - q, r) * y[i];
            }
        }
        for (int p = 0; p < k; p++) {
            for (int r = p + 1; r < k; r++) {
                double f = a[r][p] / a[p][p];
                for (int c = p; c <= k; c++) {
                    a[r][c] -= f * a[p][c];
                }
            }
        }
        double[] coef = new double[k];
        for (int r = k - 1; r >= 0; r--) {
            double s = a[r][k];
            for (int c = r + 1; c < k; c++) {
                s -= a[r][c] * coef[c];
            }
            coef[r] = s / a[r][r];
        }
        return coef[0];
    }

    private static void assertClose(double[] expected, double[] actual, double tolerance) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tolerance, "at " + i);
        }
    }
}
