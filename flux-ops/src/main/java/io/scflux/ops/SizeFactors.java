package io.scflux.ops;

import java.util.Arrays;

/**
 * normalize_total's per-cell factors, {@code counts_per_cell / target_sum}, with scanpy's arithmetic: totals and
 * target in the sum type (float32 unless X is float64), the quotient rounded to it. Without a target sum, the target
 * is the median of the positive totals, computed as numpy's median does (the mean of the two middle values for an
 * even count, in the sum type).
 */
final class SizeFactors {

    private SizeFactors() {
    }

    /** The factors of cells with these float64 totals; {@code targetSum} null means the median of positive totals. */
    static double[] of(double[] totals, Double targetSum, SumType type) {
        double[] counts = new double[totals.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = type.round(totals[i]);
        }
        double target = targetSum != null ? type.round(targetSum) : medianOfPositive(counts, type);
        double[] factors = new double[counts.length];
        for (int i = 0; i < factors.length; i++) {
            factors[i] = type.round(counts[i] / target);
        }
        return factors;
    }

    /** NaN when no total is positive, as {@code np.median} of an empty array. */
    static double medianOfPositive(double[] counts, SumType type) {
        double[] positive = Arrays.stream(counts).filter(c -> c > 0).sorted().toArray();
        int n = positive.length;
        if (n == 0) {
            return Double.NaN;
        }
        if (n % 2 == 1) {
            return positive[n / 2];
        }
        return type.round(type.round(positive[n / 2 - 1] + positive[n / 2]) / 2);
    }
}
