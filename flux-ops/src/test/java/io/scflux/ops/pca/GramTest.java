/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.scflux.core.HostBackend;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import org.junit.jupiter.api.Test;

/** The Gram pass gives the same bits whether a row's columns come sorted (fast path) or not, and equals X'X. */
class GramTest {

    @Test
    void sortedAndUnsortedRowsGiveTheSameBitsAndXtX() {
        CsrMatrix m = Matrices.random(80, 25, 0.3, 13);
        RowBlock sorted = m.open().read(0, 0, m.nRows());
        int[] reversed = sorted.indices().clone();
        float[] values = sorted.values().clone();
        int[] ip = sorted.indptr();
        for (int r = 0; r < sorted.nRows(); r++) {
            for (int i = ip[r], j = ip[r + 1] - 1; i < j; i++, j--) {
                int t = reversed[i];
                reversed[i] = reversed[j];
                reversed[j] = t;
                float v = values[i];
                values[i] = values[j];
                values[j] = v;
            }
        }
        RowBlock unsorted = RowBlock.of(0, 0, 25, ip, reversed, values);
        Gram gram = new Gram(25, HostBackend.INSTANCE);
        double[] meanA = new double[25];
        double[] meanB = new double[25];
        double[] a = gram.covariance(gram.fold(sorted), 80, meanA);
        double[] b = gram.covariance(gram.fold(unsorted), 80, meanB);
        assertArrayEquals(a, b);
        assertArrayEquals(meanA, meanB);

        // a row listing a column twice counts it as the sum of its entries, as a matrix product does
        RowBlock twice = RowBlock.of(0, 0, 3, new int[] {0, 3}, new int[] {2, 0, 2}, new float[] {1, 5, 2});
        double[] means = new double[3];
        Gram small = new Gram(3, HostBackend.INSTANCE);
        double[] c = small.covariance(small.fold(twice), 2, means);
        org.junit.jupiter.api.Assertions.assertEquals((9 - 2 * 1.5 * 1.5) / 1, c[2 * 3 + 2], "(1 + 2)^2 at (2, 2)");
        org.junit.jupiter.api.Assertions.assertEquals((15 - 2 * 2.5 * 1.5) / 1, c[2], "5 * (1 + 2) at (0, 2)");
        double[][] dense = new double[80][25];
        for (int r = 0; r < 80; r++) {
            for (int k = ip[r]; k < ip[r + 1]; k++) {
                dense[r][sorted.indices()[k]] = sorted.values()[k];
            }
        }
        for (int x = 0; x < 25; x++) {
            for (int y = 0; y < 25; y++) {
                double s = 0;
                for (int r = 0; r < 80; r++) {
                    s += dense[r][x] * dense[r][y];
                }
                double expected = (s - 80 * meanA[x] * meanA[y]) / 79;
                org.junit.jupiter.api.Assertions.assertEquals(expected, a[x * 25 + y], 1e-9 * (1 + Math.abs(expected)));
            }
        }
    }
}
