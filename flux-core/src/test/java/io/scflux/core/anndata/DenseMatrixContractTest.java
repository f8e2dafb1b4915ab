/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.test.BlockSourceContract;
import io.scflux.core.test.Matrices;
import org.junit.jupiter.api.Test;

/** An in-memory dense matrix streams back its entries that are not zero, keeps float64 and says it is dense. */
class DenseMatrixContractTest extends BlockSourceContract {

    private static final CsrMatrix DATA = Matrices.random(300, 50, 0.3, 11);

    @Override
    protected BlockSource source() {
        double[] dense = new double[(int) DATA.nRows() * DATA.nCols()];
        for (int r = 0; r < DATA.nRows(); r++) {
            for (long k = DATA.indptr(r); k < DATA.indptr(r + 1); k++) {
                dense[r * DATA.nCols() + DATA.index(k)] = DATA.value(k);
            }
        }
        return DenseMatrix.of((int) DATA.nRows(), DATA.nCols(), dense);
    }

    @Override
    protected CsrMatrix expected() {
        return DATA;
    }

    @Test
    void keepsFloat64AndNaNAndSaysDense() {
        DenseMatrix m = DenseMatrix.of(2, 3, new double[] {0.1, 0, Double.NaN, 0, 0, 1e300});
        assertTrue(m.isDense());
        assertEquals(DType.FLOAT64, m.dtype());
        assertEquals(0.1, m.get(0, 0));
        assertEquals(1e300, m.get(1, 2));
        RowBlock b = m.open().read(0, 0, 2);
        assertArrayEquals(new int[] {0, 2, 3}, b.indptr());
        assertArrayEquals(new int[] {0, 2, 2}, b.indices());
        assertArrayEquals(new float[] {0.1f, Float.NaN, Float.POSITIVE_INFINITY}, b.values());
        assertThrows(IndexOutOfBoundsException.class, () -> m.get(2, 0));
        assertThrows(IllegalArgumentException.class, () -> DenseMatrix.of(2, 2, new double[3]));
    }
}
