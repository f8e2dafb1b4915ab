/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.BlockSource;
import io.scflux.core.test.BlockSourceContract;
import io.scflux.core.test.Matrices;
import org.junit.jupiter.api.Nested;

/** Subset views stream the selected rows and columns in selection order, checked against dense indexing. */
class SubsetContractTest {

    private static final CsrMatrix BASE = Matrices.random(200, 40, 0.2, 11);

    /** Dense indexing {@code base[rows][:, cols]} rebuilt as CSR: the independent answer. */
    static CsrMatrix denseSubset(CsrMatrix base, int[] rows, int[] cols) {
        float[][] dense = new float[(int) base.nRows()][base.nCols()];
        for (int r = 0; r < base.nRows(); r++) {
            for (long k = base.indptr(r); k < base.indptr(r + 1); k++) {
                dense[r][base.index(k)] = base.value(k);
            }
        }
        CsrMatrix.Builder b = CsrMatrix.builder(cols.length);
        for (int r : rows) {
            int n = 0;
            int[] idx = new int[cols.length];
            float[] val = new float[cols.length];
            for (int j = 0; j < cols.length; j++) {
                if (dense[r][cols[j]] != 0) {
                    idx[n] = j;
                    val[n++] = dense[r][cols[j]];
                }
            }
            b.addRow(java.util.Arrays.copyOf(idx, n), java.util.Arrays.copyOf(val, n));
        }
        return b.build();
    }

    static int[] range(int n) {
        return java.util.stream.IntStream.range(0, n).toArray();
    }

    abstract static class Case extends BlockSourceContract {
        abstract int[] rows();

        abstract int[] cols();

        @Override
        protected BlockSource source() {
            return AnnData.of(BASE)
                    .subset(Selection.of(rows()), Selection.of(cols()))
                    .x();
        }

        @Override
        protected CsrMatrix expected() {
            return denseSubset(BASE, rows(), cols());
        }
    }

    @Nested
    class SortedRowsAllColumns extends Case {
        int[] rows() {
            return java.util.stream.IntStream.range(0, 200)
                    .filter(i -> i % 3 != 1)
                    .toArray();
        }

        int[] cols() {
            return range(40);
        }
    }

    @Nested
    class ShuffledRowsWithRepeats extends Case {
        int[] rows() {
            return new int[] {199, 0, 5, 5, 17, 16, 15, 100, 101, 102, 103, 3, 150, 149, 0};
        }

        int[] cols() {
            return range(40);
        }
    }

    @Nested
    class ReorderedAndRepeatedColumns extends Case {
        int[] rows() {
            return range(200);
        }

        int[] cols() {
            return new int[] {39, 2, 2, 17, 0, 38, 5, 21, 22, 23};
        }
    }

    @Nested
    class NothingSelected extends Case {
        int[] rows() {
            return new int[0];
        }

        int[] cols() {
            return new int[] {1, 2};
        }
    }
}
