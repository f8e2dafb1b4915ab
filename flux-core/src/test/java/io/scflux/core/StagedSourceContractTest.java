/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSourceContract;
import io.scflux.core.test.Matrices;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Staged sources map blocks as they are read; stages fuse; densifying stages plan by row width. */
class StagedSourceContractTest {

    private static final CsrMatrix BASE = Matrices.random(150, 30, 0.2, 21);

    private static Stage times(float f) {
        return b -> {
            float[] v = new float[b.nnz()];
            for (int i = 0; i < v.length; i++) {
                v[i] = b.values()[i] * f;
            }
            return b.withValues(v);
        };
    }

    /** Every entry of every row, zeros included, plus one: a stage that fills rows. */
    private static final Stage FILL_PLUS_ONE = b -> {
        int cols = b.nCols();
        int[] ip = new int[b.nRows() + 1];
        int[] idx = new int[b.nRows() * cols];
        float[] val = new float[idx.length];
        for (int r = 0; r < b.nRows(); r++) {
            for (int c = 0; c < cols; c++) {
                idx[r * cols + c] = c;
                val[r * cols + c] = 1;
            }
            for (int k = b.indptr()[r]; k < b.indptr()[r + 1]; k++) {
                val[r * cols + b.indices()[k]] += b.values()[k];
            }
            ip[r + 1] = (r + 1) * cols;
        }
        return RowBlock.of(b.blockIndex(), b.rowStart(), cols, ip, idx, val);
    };

    @Nested
    class FusedScaling extends BlockSourceContract {
        @Override
        protected BlockSource source() {
            return StagedSource.of(StagedSource.of(BASE, times(2)), times(3));
        }

        @Override
        protected CsrMatrix expected() {
            CsrMatrix.Builder b = CsrMatrix.builder(BASE.nCols());
            for (long r = 0; r < BASE.nRows(); r++) {
                int n = (int) (BASE.indptr(r + 1) - BASE.indptr(r));
                int[] idx = new int[n];
                float[] val = new float[n];
                for (int k = 0; k < n; k++) {
                    idx[k] = BASE.index(BASE.indptr(r) + k);
                    val[k] = BASE.value(BASE.indptr(r) + k) * 2 * 3;
                }
                b.addRow(idx, val);
            }
            return b.build();
        }
    }

    @Nested
    class Densifying extends BlockSourceContract {
        @Override
        protected BlockSource source() {
            return StagedSource.densifying(BASE, FILL_PLUS_ONE, BASE.nCols(), DType.FLOAT32);
        }

        @Override
        protected CsrMatrix expected() {
            CsrMatrix.Builder b = CsrMatrix.builder(BASE.nCols());
            for (long r = 0; r < BASE.nRows(); r++) {
                float[] row = new float[BASE.nCols()];
                java.util.Arrays.fill(row, 1);
                for (long k = BASE.indptr(r); k < BASE.indptr(r + 1); k++) {
                    row[BASE.index(k)] += BASE.value(k);
                }
                int[] idx = java.util.stream.IntStream.range(0, BASE.nCols()).toArray();
                b.addRow(idx, row);
            }
            return b.build();
        }
    }

    @Test
    void stagesFuseIntoOneOverTheOriginalBase() {
        StagedSource twice = StagedSource.of(StagedSource.of(BASE, times(2)), times(3));
        assertSame(BASE, twice.base());
        assertTrue(!twice.isDense());
        StagedSource dense = StagedSource.densifying(BASE, FILL_PLUS_ONE, BASE.nCols(), DType.FLOAT64);
        assertTrue(dense.isDense());
        assertEquals(DType.FLOAT64, dense.dtype());
        BlockPlan p = dense.plan(new PlanTarget(100, 1000));
        assertEquals(100 / BASE.nCols(), p.nRows(0));
    }
}
