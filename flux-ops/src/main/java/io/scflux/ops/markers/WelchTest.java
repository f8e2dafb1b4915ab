/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import org.apache.commons.math3.special.Beta;

/**
 * Welch's two-sample t-test of every gene from the moments of two sets of cells, as scanpy's rank_genes_groups calls
 * scipy's {@code ttest_ind_from_stats(equal_var=False)}: {@code t = (mean1 - mean2) / sqrt(v1 / n1 + v2 / n2)} with
 * the variances squared back from their square roots as scipy receives them, Welch-Satterthwaite degrees of freedom
 * (1 where they are undefined, as both variances are 0), the two-sided p-value of Student's t; a NaN score becomes 0
 * and its p-value 1.
 *
 * <p>The p-value is {@code 2 * sf(|t|) = I(df / (df + t^2); df / 2, 1 / 2)}, the regularized incomplete beta function
 * of Apache Commons Math, which keeps its relative accuracy in the far tail (p-values of 1e-290 and below), where the
 * strongest marker genes lie.
 */
final class WelchTest {

    private WelchTest() {}

    /**
     * The scores ({@code t}) and p-values of {@code group} against {@code other}, whose variance is divided by
     * {@code n2} cells (the rest's count, or the group's for t-test_overestim_var).
     */
    static double[][] test(GroupMoments group, GroupMoments other, long n2) {
        int nGenes = group.mean().length;
        double[] scores = new double[nGenes];
        double[] pvals = new double[nGenes];
        double n1 = group.n();
        for (int g = 0; g < nGenes; g++) {
            double std1 = Math.sqrt(group.variance()[g]);
            double std2 = Math.sqrt(other.variance()[g]);
            double vn1 = std1 * std1 / n1;
            double vn2 = std2 * std2 / n2;
            double df = (vn1 + vn2) * (vn1 + vn2) / (vn1 * vn1 / (n1 - 1) + vn2 * vn2 / (n2 - 1));
            if (Double.isNaN(df)) {
                df = 1;
            }
            double t = (group.mean()[g] - other.mean()[g]) / Math.sqrt(vn1 + vn2);
            if (Double.isNaN(t)) {
                scores[g] = 0;
                pvals[g] = 1;
            } else {
                scores[g] = t;
                pvals[g] = twoSided(t, df);
            }
        }
        return new double[][] {scores, pvals};
    }

    /** {@code 2 * P(T > |t|)} for Student's t with {@code df} degrees of freedom. */
    static double twoSided(double t, double df) {
        if (t == 0) {
            return 1;
        }
        double p = Beta.regularizedBeta(df / (df + t * t), 0.5 * df, 0.5);
        return Double.isNaN(p) ? 1 : p;
    }
}
