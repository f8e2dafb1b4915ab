/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.RowBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link HostGram#gram} against the sums written out over a dense copy of the block, entry by entry in row order:
 * the same bits, for blocks whose triangle spans one panel or several, with rows in column order or not, empty rows,
 * and the rows given as one block or as a tile of several.
 */
class GramKernelTest {

    @ParameterizedTest(name = "{0} rows x {1} columns, density {2}, rows shuffled: {3}")
    @CsvSource({
        "50, 40, 0.3, false",
        "200, 700, 0.2, false",
        "200, 700, 0.2, true",
        "120, 1500, 0.05, false",
        "30, 1, 0.5, false"
    })
    void givesTheRowOrderSumsOfTheDenseProducts(int rows, int cols, double density, boolean shuffled) {
        if (cols >= 700) {
            assertTrue(8L * cols * (cols + 1) / 2 > 3L * HostGram.GRAM_PANEL_BYTES, "spans several panels");
        }
        SplittableRandom rnd = new SplittableRandom(rows * 31L + cols);
        float[][] dense = new float[rows][cols];
        int[] indptr = new int[rows + 1];
        int[] idx = new int[rows * cols];
        float[] val = new float[rows * cols];
        int nnz = 0;
        for (int r = 0; r < rows; r++) {
            int start = nnz;
            if (r % 7 != 3) {
                for (int c = 0; c < cols; c++) {
                    if (rnd.nextDouble() < density) {
                        dense[r][c] = (float) (rnd.nextDouble() * 5 - 1);
                        idx[nnz] = c;
                        val[nnz++] = dense[r][c];
                    }
                }
            }
            for (int i = nnz - 1; shuffled && i > start; i--) {
                int j = start + rnd.nextInt(i - start + 1);
                int ti = idx[i];
                idx[i] = idx[j];
                idx[j] = ti;
                float tv = val[i];
                val[i] = val[j];
                val[j] = tv;
            }
            indptr[r + 1] = nnz;
        }
        RowBlock block =
                RowBlock.of(0, 0, cols, indptr, java.util.Arrays.copyOf(idx, nnz), java.util.Arrays.copyOf(val, nnz));

        double[] expected = new double[cols * (cols + 1) / 2];
        double[] expectedSums = new double[cols];
        for (float[] row : dense) {
            for (int a = 0; a < cols; a++) {
                if (row[a] != 0) {
                    expectedSums[a] += row[a];
                    for (int b = a; b < cols; b++) {
                        if (row[b] != 0) {
                            expected[GramKernel.gramIndex(a, b, cols)] += (double) row[a] * row[b];
                        }
                    }
                }
            }
        }
        double[] upper = new double[expected.length];
        double[] sums = new double[cols];
        HostGram.INSTANCE.gram(List.of(block), upper, sums);
        assertArrayEquals(expected, upper, "the triangle, bit for bit");
        assertArrayEquals(expectedSums, sums, "the column sums, bit for bit");

        // the same rows as a tile of several blocks, some empty: the same bits
        List<RowBlock> parts = new ArrayList<>();
        int[] cuts = {0, rows / 3, rows / 3, rows / 2, rows};
        for (int c = 0; c + 1 < cuts.length; c++) {
            parts.add(rows(block, cuts[c], cuts[c + 1]));
        }
        double[] tiled = new double[expected.length];
        double[] tiledSums = new double[cols];
        HostGram.INSTANCE.gram(parts, tiled, tiledSums);
        assertArrayEquals(expected, tiled, "a tile of blocks, bit for bit");
        assertArrayEquals(expectedSums, tiledSums, "a tile's column sums, bit for bit");
    }

    /** Rows {@code [from, to)} of {@code b} as a block of their own. */
    private static RowBlock rows(RowBlock b, int from, int to) {
        int start = b.indptr()[from];
        int[] indptr = new int[to - from + 1];
        for (int r = from; r <= to; r++) {
            indptr[r - from] = b.indptr()[r] - start;
        }
        int end = b.indptr()[to];
        return RowBlock.of(
                0,
                from,
                b.nCols(),
                indptr,
                java.util.Arrays.copyOfRange(b.indices(), start, end),
                java.util.Arrays.copyOfRange(b.values(), start, end));
    }
}
