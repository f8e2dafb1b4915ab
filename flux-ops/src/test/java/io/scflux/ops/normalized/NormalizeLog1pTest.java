/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalized;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.RowBlock;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The fused, table-driven normalize + log1p gives the bits of the two stages one after the other. */
class NormalizeLog1pTest {

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sameBitsAsDivisionThenLog1p(boolean single) {
        SplittableRandom rnd = new SplittableRandom(single ? 1 : 2);
        int rows = 300;
        int[] ip = new int[rows + 1];
        int n = 30 * rows;
        int[] idx = new int[n];
        float[] val = new float[n];
        for (int r = 0; r < rows; r++) {
            ip[r + 1] = ip[r] + 30;
            for (int k = ip[r]; k < ip[r + 1]; k++) {
                idx[k] = k - ip[r];
                int kind = rnd.nextInt(10);
                val[k] = kind < 6
                        ? 1 + rnd.nextInt(4)
                        : kind < 8
                                ? rnd.nextInt(200)
                                : kind == 8 ? (float) (rnd.nextDouble() * 50) : (rnd.nextBoolean() ? -0.0f : -3f);
            }
        }
        RowBlock block = RowBlock.of(0, 0, 30, ip, idx, val);
        double[] factors = new double[rows];
        for (int r = 0; r < rows; r++) {
            factors[r] = r % 17 == 0 ? 0 : (float) (rnd.nextDouble() * 3 + 0.01);
        }
        Log1pStage log1p = new Log1pStage(single, single ? null : 2.0);
        RowBlock expected = log1p.apply(new RowScale(factors).apply(block));
        RowBlock fused = new NormalizeLog1p(factors, log1p).apply(block);
        for (int k = 0; k < n; k++) {
            assertEquals(
                    Float.floatToRawIntBits(expected.values()[k]),
                    Float.floatToRawIntBits(fused.values()[k]),
                    "entry " + k + " value " + val[k]);
        }
    }
}
