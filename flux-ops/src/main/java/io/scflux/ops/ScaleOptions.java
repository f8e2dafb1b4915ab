/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link Scale#scale}, as scanpy's {@code sc.pp.scale(zero_center, max_value)}: centre each gene
 * on its mean (which makes the data dense) or not, and clip at {@code maxValue} (null: no clipping; negatives are
 * clipped at {@code -maxValue} only when centring, as in scanpy).
 */
public record ScaleOptions(boolean zeroCenter, @Nullable Double maxValue) {

    private static final ScaleOptions DEFAULT = new ScaleOptions(true, null);

    /** scanpy's defaults. */
    public static ScaleOptions defaults() {
        return DEFAULT;
    }

    public ScaleOptions {
        if (maxValue != null && !(maxValue > 0)) {
            throw new InvalidOptionException("max_value must be positive, got " + maxValue);
        }
    }

    public ScaleOptions withZeroCenter(boolean z) {
        return new ScaleOptions(z, maxValue);
    }

    public ScaleOptions withMaxValue(Double max) {
        return new ScaleOptions(zeroCenter, max);
    }
}
