/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalize;

import io.scflux.ops.values.SumType;
import java.util.Arrays;
import java.util.function.IntToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * normalize_total's per-cell factors, {@code counts_per_cell / target_sum}, with scanpy's arithmetic: totals and
 * target in the sum type (float32 unless X is float64), the quotient rounded to it. Without a target sum, the target
 * is the median of the positive totals, computed as numpy's median does (the mean of the two middle values for an
 * even count, in the sum type).
 *
 * <p>Public because {@code Preprocess}, the fused pipeline above the step packages, computes each row's factor from
 * QC's totals as it reads them.
 */
public final class SizeFactors {

    private SizeFactors() {}

    /**
     * The factors of {@code n} cells, {@code totals(i)} the float64 total of cell {@code i}; {@code targetSum} null
     * means the median of positive totals. Only the factors are allocated (and, for the median, the positive totals).
     */
    static double[] of(int n, IntToDoubleFunction totals, @Nullable Double targetSum, SumType type) {
        double target;
        if (targetSum != null) {
            target = type.round(targetSum);
        } else {
            double[] counts = new double[n];
            for (int i = 0; i < n; i++) {
                counts[i] = type.round(totals.applyAsDouble(i));
            }
            target = medianOfPositive(counts, type);
        }
        double[] factors = new double[n];
        for (int i = 0; i < n; i++) {
            factors[i] = factor(totals.applyAsDouble(i), target, type);
        }
        return factors;
    }

    /** The factor of a cell of float64 total {@code total} for {@code target} (already in the sum type). */
    public static double factor(double total, double target, SumType type) {
        return type.round(type.round(total) / target);
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
