/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalized;

import io.scflux.core.Stage;
import org.jspecify.annotations.Nullable;

/**
 * normalize_total's division fused with log1p, the kernel the normalized view reads its blocks through: a backend that
 * accelerates it implements it ({@link io.scflux.core.Backend#kernel}); {@link NormalizeLog1p} is the host's form, the
 * reference.
 */
public interface NormalizeLog1pKernel {

    /**
     * normalize_total's division by the row's factor ({@code factors} indexed by global row, zero taken as one)
     * followed by {@code log1p} in float32 ({@code single}) or float64, divided by {@code ln(base)} (null: natural).
     *
     * @param factors each row's size factor, by global row
     * @param single whether the data are float32
     * @param base the logarithm's base, or null for the natural logarithm
     * @return the stage computing it block by block
     */
    Stage normalizeLog1p(double[] factors, boolean single, @Nullable Double base);
}
