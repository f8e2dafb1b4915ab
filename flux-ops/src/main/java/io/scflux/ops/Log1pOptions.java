/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/** The parameter of {@link Log1p}: the logarithm's {@code base}, or null for the natural logarithm (scanpy's default). */
public record Log1pOptions(@Nullable Double base) {

    public Log1pOptions {
        if (base != null && !(base > 0 && base != 1 && base < Double.POSITIVE_INFINITY)) {
            throw new InvalidOptionException("log1p base must be positive, finite and not 1, got " + base);
        }
    }

    /** The natural logarithm. */
    public static Log1pOptions defaults() {
        return new Log1pOptions(null);
    }
}
