/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.RowBlock;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Packing gives back the same block bit for bit; what cannot be packed is kept as it is. */
class PackedBlockTest {

    private static RowBlock block(int[][] rows, float[][] vals, int nCols) {
        int n = 0;
        for (int[] r : rows) {
            n += r.length;
        }
        int[] ip = new int[rows.length + 1];
        int[] idx = new int[n];
        float[] val = new float[n];
        for (int r = 0, k = 0; r < rows.length; r++) {
            for (int j = 0; j < rows[r].length; j++, k++) {
                idx[k] = rows[r][j];
                val[k] = vals[r][j];
            }
            ip[r + 1] = k;
        }
        return RowBlock.of(3, 10, nCols, ip, idx, val);
    }

    private static void assertRoundTrip(RowBlock b, boolean packed) {
        PackedBlock p = PackedBlock.pack(b);
        assertEquals(packed, p.isPacked());
        RowBlock back = p.unpack(b.blockIndex(), b.rowStart());
        assertEquals(b, back);
        for (int k = 0; k < b.nnz(); k++) {
            assertEquals(Float.floatToRawIntBits(b.values()[k]), Float.floatToRawIntBits(back.values()[k]));
        }
    }

    @Test
    void countsWithEmptyRowsAndEveryWidth() {
        int[][] rows = {{0, 1, 5}, {}, {2}, {}, {0, 7, 8, 9}};
        float[][] vals = {{1, 2, 3}, {}, {Integer.MAX_VALUE - 127}, {}, {0, 65536, 3, 1}};
        assertRoundTrip(block(rows, vals, 10), true);
        assertRoundTrip(RowBlock.empty(0, 0, 5, 10), true);
        assertRoundTrip(RowBlock.empty(0, 0, 0, 10), true);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 127, 128, 129, 1000, 5000})
    void randomCountBlocksAcrossGroupBoundaries(int rows) {
        SplittableRandom rnd = new SplittableRandom(rows);
        int cols = 3000;
        int[][] r = new int[rows][];
        float[][] v = new float[rows][];
        for (int i = 0; i < rows; i++) {
            int n = rnd.nextInt(0, 300);
            r[i] = rnd.ints(n, 0, cols).distinct().sorted().toArray();
            v[i] = new float[r[i].length];
            for (int j = 0; j < r[i].length; j++) {
                // counts as single-cell data hold them: mostly 1 to 3, a long tail, a rare large value
                v[i][j] = rnd.nextInt(1000) == 0
                        ? rnd.nextInt(1, 100_000)
                        : 1 + (int) (-Math.log(1 - rnd.nextDouble()) * 1.5);
            }
        }
        RowBlock b = block(r, v, cols);
        assertRoundTrip(b, true);
        if (rows >= 128) {
            assertTrue(PackedBlock.pack(b).sizeInBytes() * 3 < b.sizeInBytes(), "counts pack at least 3x");
        }
    }

    @Test
    void whatIsNotCountsInColumnOrderStaysAsItIs() {
        assertRoundTrip(block(new int[][] {{0, 1}}, new float[][] {{1.5f, 2}}, 5), false);
        assertRoundTrip(block(new int[][] {{3, 1}}, new float[][] {{1, 2}}, 5), false);
        assertRoundTrip(block(new int[][] {{1, 1}}, new float[][] {{1, 2}}, 5), false);
        assertRoundTrip(block(new int[][] {{1}}, new float[][] {{-1}}, 5), false);
        assertRoundTrip(block(new int[][] {{1}}, new float[][] {{-0.0f}}, 5), false);
        assertRoundTrip(block(new int[][] {{1}}, new float[][] {{Float.NaN}}, 5), false);
        assertRoundTrip(block(new int[][] {{1}}, new float[][] {{3e9f}}, 5), false);
        assertFalse(PackedBlock.pack(block(new int[][] {{1}}, new float[][] {{0.25f}}, 5))
                .isPacked());
    }

    @Test
    void unpackingGivesFreshArrays() {
        RowBlock b = block(new int[][] {{0, 2}}, new float[][] {{1, 2}}, 5);
        PackedBlock p = PackedBlock.pack(b);
        RowBlock one = p.unpack(0, 0);
        one.values()[0] = 99;
        assertEquals(1f, p.unpack(0, 0).values()[0]);
    }
}
