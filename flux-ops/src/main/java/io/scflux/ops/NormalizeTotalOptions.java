/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link NormalizeTotal}, as scanpy's {@code normalize_total} names them: {@code targetSum} (null:
 * the median of the positive cell totals), {@code excludeHighlyExpressed} with {@code maxFraction} (genes above that
 * fraction of some cell's total do not count towards any total), {@code keyAdded} (an obs column for the factors, or
 * null).
 */
public record NormalizeTotalOptions(
        @Nullable Double targetSum,
        boolean excludeHighlyExpressed,
        double maxFraction,
        @Nullable String keyAdded) {

    public NormalizeTotalOptions {
        if (targetSum != null && !(targetSum > 0 && targetSum < Double.POSITIVE_INFINITY)) {
            throw new InvalidOptionException("target_sum must be positive and finite, got " + targetSum);
        }
        if (!(maxFraction >= 0 && maxFraction <= 1)) {
            throw new InvalidOptionException("max_fraction must be between 0 and 1, got " + maxFraction);
        }
    }

    /** scanpy's defaults: median target, no exclusion, max_fraction 0.05, no obs column. */
    public static NormalizeTotalOptions defaults() {
        return new NormalizeTotalOptions(null, false, 0.05, null);
    }

    public NormalizeTotalOptions withTargetSum(Double sum) {
        return new NormalizeTotalOptions(sum, excludeHighlyExpressed, maxFraction, keyAdded);
    }

    public NormalizeTotalOptions excludingHighlyExpressed(double fraction) {
        return new NormalizeTotalOptions(targetSum, true, fraction, keyAdded);
    }

    public NormalizeTotalOptions withKeyAdded(String key) {
        return new NormalizeTotalOptions(targetSum, excludeHighlyExpressed, maxFraction, key);
    }
}
