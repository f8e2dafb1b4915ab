/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalize;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
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

    /** scanpy's {@code target_sum}. */
    public static final Parameter<Double> TARGET_SUM = Parameter.number(
                    "target_sum",
                    null,
                    "Each cell's total after normalization (default: the median of the nonzero cell totals, as "
                            + "scanpy).")
            .above(0)
            .below(Double.POSITIVE_INFINITY);

    /** scanpy's {@code exclude_highly_expressed}. */
    public static final Parameter<Boolean> EXCLUDE_HIGHLY_EXPRESSED = Parameter.bool(
            "exclude_highly_expressed",
            false,
            "Leave out of every cell's total the genes that make up more than max_fraction of some cell's total (a "
                    + "first pass finds them).");

    /** scanpy's {@code max_fraction}. */
    public static final Parameter<Double> MAX_FRACTION = Parameter.number(
                    "max_fraction", 0.05, "With exclude_highly_expressed: the fraction.")
            .atLeast(0)
            .atMost(1);

    /** scanpy's {@code key_added}. */
    public static final Parameter<String> KEY_ADDED = Parameter.text(
            "key_added", null, "Add this obs column: each cell's normalization factor, its total / target sum.");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS =
            List.of(TARGET_SUM, EXCLUDE_HIGHLY_EXPRESSED, MAX_FRACTION, KEY_ADDED);

    public NormalizeTotalOptions {
        TARGET_SUM.check(targetSum);
        MAX_FRACTION.check(maxFraction);
    }

    /** scanpy's defaults: median target, no exclusion, max_fraction 0.05, no obs column. */
    public static NormalizeTotalOptions defaults() {
        return from(Arguments.none());
    }

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static NormalizeTotalOptions from(Arguments arguments) {
        return new NormalizeTotalOptions(
                arguments.get(TARGET_SUM),
                arguments.require(EXCLUDE_HIGHLY_EXPRESSED),
                arguments.require(MAX_FRACTION),
                arguments.get(KEY_ADDED));
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
