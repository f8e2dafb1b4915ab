/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.scale;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link Scale#scale}, as scanpy's {@code sc.pp.scale(zero_center, max_value)}: centre each gene
 * on its mean (which makes the data dense) or not, and clip at {@code maxValue} (null: no clipping; negatives are
 * clipped at {@code -maxValue} only when centring, as in scanpy).
 */
public record ScaleOptions(boolean zeroCenter, @Nullable Double maxValue) {

    /** scanpy's {@code zero_center}. */
    public static final Parameter<Boolean> ZERO_CENTER = Parameter.bool(
            "zero_center", true, "Centre each gene on its mean (makes X dense); without, X keeps its sparsity.");

    /** scanpy's {@code max_value}. */
    public static final Parameter<Double> MAX_VALUE = Parameter.number(
                    "max_value",
                    null,
                    "Clip scaled values above this (and below minus it when centring); default: " + "no clipping.")
            .above(0);

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS = List.of(ZERO_CENTER, MAX_VALUE);

    private static final ScaleOptions DEFAULT = from(Arguments.none());

    /** scanpy's defaults. */
    public static ScaleOptions defaults() {
        return DEFAULT;
    }

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static ScaleOptions from(Arguments arguments) {
        return new ScaleOptions(arguments.require(ZERO_CENTER), arguments.get(MAX_VALUE));
    }

    public ScaleOptions {
        MAX_VALUE.check(maxValue);
    }

    public ScaleOptions withZeroCenter(boolean z) {
        return new ScaleOptions(z, maxValue);
    }

    public ScaleOptions withMaxValue(Double max) {
        return new ScaleOptions(zeroCenter, max);
    }
}
