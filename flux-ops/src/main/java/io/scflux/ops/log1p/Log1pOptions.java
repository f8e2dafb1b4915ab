/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.log1p;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The parameter of {@link Log1p}: the logarithm's {@code base}, or null for the natural logarithm (scanpy's default). */
public record Log1pOptions(@Nullable Double base) {

    /** scanpy's {@code base}. */
    public static final Parameter<Double> BASE = Parameter.number(
                    "base", null, "Base of the logarithm (default: e, the natural logarithm).")
            .above(0)
            .below(Double.POSITIVE_INFINITY)
            .except(1);

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS = List.of(BASE);

    public Log1pOptions {
        BASE.check(base);
    }

    /** The natural logarithm. */
    public static Log1pOptions defaults() {
        return from(Arguments.none());
    }

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static Log1pOptions from(Arguments arguments) {
        return new Log1pOptions(arguments.get(BASE));
    }
}
