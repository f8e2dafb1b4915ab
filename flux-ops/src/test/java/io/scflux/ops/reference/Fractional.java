/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.Threads;
import java.time.Duration;

/** Test data whose sums are not exact in float arithmetic, so that only a fixed summation order repeats the bits. */
public final class Fractional {

    private Fractional() {}

    /** 300 x 120, about 30% stored, some empty rows, values with fractions (counts times 0.37 plus a little). */
    public static CsrMatrix matrix(long seed) {
        CsrMatrix m = Matrices.random(300, 120, 0.3, seed);
        CsrMatrix.Builder b = CsrMatrix.builder(m.nCols());
        for (long r = 0; r < m.nRows(); r++) {
            int n = (int) (m.indptr(r + 1) - m.indptr(r));
            int[] idx = new int[n];
            float[] v = new float[n];
            for (int i = 0; i < n; i++) {
                long k = m.indptr(r) + i;
                idx[i] = m.index(k);
                v[i] = m.value(k) * 0.37f + 1e-3f * (k % 7);
            }
            b.addRow(idx, v);
        }
        return b.build();
    }

    /** All of {@code x} in memory, read with {@code threads} workers. */
    public static CsrMatrix collect(BlockSource x, Threads threads) {
        return CsrMatrix.collect(x.blocks(x.plan(), threads.execution()), x.nCols())
                .block(Duration.ofSeconds(120));
    }
}
