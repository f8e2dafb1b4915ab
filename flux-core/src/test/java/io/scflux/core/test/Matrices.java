/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.scflux.core.anndata.CsrMatrix;
import java.util.SplittableRandom;

/** In-memory and random sparse matrices for tests (seeded), and a bit-for-bit comparison. */
public final class Matrices {

    private Matrices() {}

    /**
     * A random {@code rows x cols} matrix with about {@code density} of its entries stored, some empty rows, values
     * small positive integers as counts are, columns sorted within rows.
     */
    public static CsrMatrix random(int rows, int cols, double density, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        CsrMatrix.Builder b = CsrMatrix.builder(cols);
        int[] idx = new int[cols];
        float[] val = new float[cols];
        for (int r = 0; r < rows; r++) {
            int n = 0;
            if (rnd.nextInt(10) != 0) {
                for (int c = 0; c < cols; c++) {
                    if (rnd.nextDouble() < density) {
                        idx[n] = c;
                        val[n++] = 1 + rnd.nextInt(20);
                    }
                }
            }
            b.addRow(java.util.Arrays.copyOf(idx, n), java.util.Arrays.copyOf(val, n));
        }
        return b.build();
    }

    /** An in-memory matrix of {@code rows} (dense rows of equal length); zeros are not stored. */
    public static CsrMatrix of(float[]... rows) {
        int cols = rows.length == 0 ? 0 : rows[0].length;
        CsrMatrix.Builder b = CsrMatrix.builder(cols);
        for (float[] row : rows) {
            if (row.length != cols) {
                throw new IllegalArgumentException("rows of " + cols + " and " + row.length + " values");
            }
            int n = 0;
            int[] idx = new int[cols];
            float[] val = new float[cols];
            for (int c = 0; c < cols; c++) {
                if (row[c] != 0) {
                    idx[n] = c;
                    val[n++] = row[c];
                }
            }
            b.addRow(java.util.Arrays.copyOf(idx, n), java.util.Arrays.copyOf(val, n));
        }
        return b.build();
    }

    /** Same shape and the same entries in the same order, values compared bit for bit. */
    public static void assertSame(CsrMatrix expected, CsrMatrix actual) {
        assertEquals(expected.nRows(), actual.nRows(), "rows");
        assertEquals(expected.nCols(), actual.nCols(), "columns");
        assertEquals(expected.nnz(), actual.nnz(), "nnz");
        for (long r = 0; r <= expected.nRows(); r++) {
            if (expected.indptr(r) != actual.indptr(r)) {
                fail("indptr differs at row " + r + ": " + expected.indptr(r) + " vs " + actual.indptr(r));
            }
        }
        for (long k = 0; k < expected.nnz(); k++) {
            if (expected.index(k) != actual.index(k)
                    || Float.floatToRawIntBits(expected.value(k)) != Float.floatToRawIntBits(actual.value(k))) {
                fail("entry " + k + " differs: (" + expected.index(k) + ", " + expected.value(k) + ") vs ("
                        + actual.index(k) + ", " + actual.value(k) + ")");
            }
        }
    }
}
