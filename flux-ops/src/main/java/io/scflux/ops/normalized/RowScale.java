/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalized;

import io.scflux.core.RowBlock;
import io.scflux.core.Stage;

/**
 * normalize_total's division of each cell's values by its factor, as scanpy divides the CSR data: one division per
 * value in the factor's type (a float32 quotient for float32 factors), a zero factor taken as one so that an empty
 * cell stays as it is.
 */
public final class RowScale implements Stage {

    private final double[] factors;

    /** {@code factors} indexed by cell, each exactly representable in the type the division runs in. */
    public RowScale(double[] factors) {
        this.factors = factors;
    }

    @Override
    public RowBlock apply(RowBlock block) {
        int[] indptr = block.indptr();
        float[] in = block.values();
        float[] out = new float[in.length];
        for (int i = 0; i < block.nRows(); i++) {
            double f = factors[Math.toIntExact(block.rowStart() + i)];
            double divisor = f == 0 ? 1 : f;
            for (int k = indptr[i]; k < indptr[i + 1]; k++) {
                // a float32 quotient rounded from float64 is the float32 division's (53 >= 2 * 24 + 2 bits); for
                // float64 data the quotient is kept in float64 up to the block's float32 values
                out[k] = (float) (in[k] / divisor);
            }
        }
        return block.withValues(out);
    }
}
