/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalized;

import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import org.jspecify.annotations.Nullable;

/**
 * normalize_total's division and log1p as one function per block, for counts: within a row, a count repeats (most
 * are 1, 2 or 3), so the result for each small whole count is computed once per row and looked up after. Looked-up
 * values are the ones {@link RowScale} then {@link Log1pStage} compute, bit for bit.
 */
public final class NormalizeLog1p implements Stage {

    /** Whole counts below this are looked up per row. */
    private static final int TABLE = 64;

    private final double[] factors;
    private final Log1pStage log1p;

    NormalizeLog1p(double[] factors, Log1pStage log1p) {
        this.factors = factors;
        this.log1p = log1p;
    }

    /** The fused stage for {@code factors} indexed by global row and a {@link Log1pStage}'s {@code single, base}. */
    public static Stage of(double[] factors, boolean single, @Nullable Double base) {
        return new NormalizeLog1p(factors, new Log1pStage(single, base));
    }

    @Override
    public RowBlock apply(RowBlock block) {
        int[] indptr = block.indptr();
        float[] in = block.values();
        float[] out = new float[in.length];
        float[] table = new float[TABLE];
        boolean[] known = new boolean[TABLE];
        for (int i = 0; i < block.nRows(); i++) {
            double f = factors[Math.toIntExact(block.rowStart() + i)];
            double divisor = f == 0 ? 1 : f;
            java.util.Arrays.fill(known, false);
            for (int k = indptr[i]; k < indptr[i + 1]; k++) {
                float v = in[k];
                int c = (int) v;
                if (c == v && c < TABLE && Float.floatToRawIntBits(v) >= 0) {
                    if (!known[c]) {
                        table[c] = log1p.of((float) (c / divisor));
                        known[c] = true;
                    }
                    out[k] = table[c];
                } else {
                    out[k] = log1p.of((float) (v / divisor));
                }
            }
        }
        return block.withValues(out);
    }
}
