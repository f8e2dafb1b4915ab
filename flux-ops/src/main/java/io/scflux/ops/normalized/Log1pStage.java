/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalized;

import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import org.jspecify.annotations.Nullable;

/**
 * {@code log1p} of every stored value, as scanpy does it: in float32 for float32 data (the logarithm rounded to
 * float32, then divided by {@code ln(base)} in float64 and rounded again), in float64 otherwise.
 */
public final class Log1pStage implements Stage {

    /** At or above this magnitude a float32 {@code v} makes {@code 1 + v} exact in float64. */
    private static final double EXACT_ONE_PLUS = 0x1p-29;

    private final boolean single;
    private final double lnBase;

    /** {@code single}: the data are float32; {@code base} null for the natural logarithm. */
    public Log1pStage(boolean single, @Nullable Double base) {
        this.single = single;
        this.lnBase = base == null ? 1 : Math.log(base);
    }

    @Override
    public RowBlock apply(RowBlock block) {
        float[] in = block.values();
        float[] out = new float[in.length];
        for (int k = 0; k < in.length; k++) {
            out[k] = of(in[k]);
        }
        return block.withValues(out);
    }

    /** The transformed value of {@code v}. */
    float of(float v) {
        double l = log1p(v);
        return (float) ((single ? (float) l : l) / lnBase);
    }

    /**
     * {@code ln(1 + v)}: through the fast {@link Math#log} when {@code 1 + v} is exact in float64, which is
     * {@link Math#log1p} to within its error bound; {@link Math#log1p} for tiny values.
     */
    public static double log1p(float v) {
        return Math.abs(v) >= EXACT_ONE_PLUS ? Math.log(1.0 + v) : Math.log1p(v);
    }
}
