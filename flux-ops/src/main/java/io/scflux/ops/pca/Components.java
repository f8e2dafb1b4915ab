/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The leading principal components of a centred matrix: the feature means it was centred with, the loadings
 * ({@code nFeatures x k}, row-major, one column per component), each component's variance and the total variance of
 * all features (what variance ratios are taken of).
 */
record Components(double[] mean, double[] loadings, double[] variance, double totalVariance)
        implements java.io.Serializable {

    int k() {
        return variance.length;
    }

    int nFeatures() {
        return mean.length;
    }

    /**
     * The {@code k} eigenpairs of largest eigenvalue among {@code values} and the matching columns of
     * {@code vectors} ({@code nFeatures x values.length}, row-major), as scikit-learn's PCA leaves them: ordered by
     * decreasing eigenvalue (ties in the order given), negative eigenvalues (rounding) taken as 0, and each
     * component's sign chosen so that its loading of largest magnitude (the first such) is positive.
     */
    static Components ranked(double[] mean, double[] values, double[] vectors, int k, double totalVariance) {
        int p = mean.length;
        int m = values.length;
        int[] order = IntStream.range(0, m)
                .boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -values[i]))
                .mapToInt(Integer::intValue)
                .limit(k)
                .toArray();
        double[] variance = new double[k];
        double[] loadings = new double[p * k];
        for (int j = 0; j < k; j++) {
            int from = order[j];
            variance[j] = Math.max(0, values[from]);
            int largest = 0;
            for (int a = 0; a < p; a++) {
                if (Math.abs(vectors[a * m + from]) > Math.abs(vectors[largest * m + from])) {
                    largest = a;
                }
            }
            double sign = vectors[largest * m + from] < 0 ? -1 : 1;
            for (int a = 0; a < p; a++) {
                loadings[a * k + j] = sign * vectors[a * m + from];
            }
        }
        return new Components(mean, loadings, variance, totalVariance);
    }

    /** Each component's share of the total variance. */
    double[] varianceRatio() {
        return Arrays.stream(variance).map(v -> v / totalVariance).toArray();
    }
}
