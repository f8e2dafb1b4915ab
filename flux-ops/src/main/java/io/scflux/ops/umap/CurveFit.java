/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.util.Pair;

/**
 * umap-learn's {@code find_ab_params}: the {@code a} and {@code b} of the map's similarity {@code 1 / (1 + a d^2b)},
 * fitted by least squares (Levenberg-Marquardt from {@code a = b = 1}, as scipy's {@code curve_fit}) to 1 below
 * {@code min_dist} and {@code exp(-(d - min_dist) / spread)} beyond, at 300 points from 0 to {@code 3 spread}.
 */
final class CurveFit {

    private static final int POINTS = 300;

    private CurveFit() {}

    /**
     * @param spread  the scale
     * @param minDist the distance below which points count as together
     * @return {@code {a, b}}
     */
    static double[] ab(double spread, double minDist) {
        double[] x = new double[POINTS];
        double[] y = new double[POINTS];
        for (int i = 0; i < POINTS; i++) {
            x[i] = spread * 3 * i / (POINTS - 1);
            y[i] = x[i] < minDist ? 1 : Math.exp(-(x[i] - minDist) / spread);
        }
        LeastSquaresOptimizer.Optimum fit = new LevenbergMarquardtOptimizer()
                .optimize(new LeastSquaresBuilder()
                        .start(new double[] {1, 1})
                        .target(y)
                        .model(point -> {
                            double a = point.getEntry(0);
                            double b = point.getEntry(1);
                            double[] value = new double[POINTS];
                            double[][] jacobian = new double[POINTS][2];
                            for (int i = 0; i < POINTS; i++) {
                                double p = x[i] == 0 ? 0 : Math.pow(x[i], 2 * b);
                                double f = 1 / (1 + a * p);
                                value[i] = f;
                                jacobian[i][0] = -p * f * f;
                                jacobian[i][1] = x[i] == 0 ? 0 : -a * p * 2 * Math.log(x[i]) * f * f;
                            }
                            return new Pair<>(
                                    new ArrayRealVector(value, false), new Array2DRowRealMatrix(jacobian, false));
                        })
                        .maxEvaluations(10_000)
                        .maxIterations(10_000)
                        .build());
        return fit.getPoint().toArray();
    }
}
