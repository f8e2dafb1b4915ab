/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.scflux.core.RowBlock;
import org.junit.jupiter.api.Test;

/** Paging lets the matrix hold more entries than one Java array; rows cross page boundaries unharmed. */
class CsrMatrixTest {

    @Test
    void rowsCrossPageBoundaries() {
        // 4 entries per page: every row below spans pages, as rows do past 2^30 entries with the real page size.
        CsrMatrix.Builder b = CsrMatrix.builder(10, 2);
        b.addRow(new int[] {0, 1, 2}, new float[] {1, 2, 3});
        b.addRow(new int[] {3, 4, 5, 6, 7}, new float[] {4, 5, 6, 7, 8});
        b.addRow(new int[0], new float[0]);
        b.addRow(new int[] {9, 8, 0}, new float[] {9, 10, 11});
        CsrMatrix m = b.build();
        assertEquals(11, m.nnz());
        assertEquals(8, m.indptr(2));
        float[] expected = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        for (int k = 0; k < 11; k++) {
            assertEquals(expected[k], m.value(k));
        }
        RowBlock middle = m.open().read(5, 1, 4);
        assertEquals(5, middle.blockIndex());
        assertEquals(1, middle.rowStart());
        assertEquals(
                java.util.List.of(0, 5, 5, 8),
                java.util.Arrays.stream(middle.indptr()).boxed().toList());
        assertEquals(
                java.util.List.of(3, 4, 5, 6, 7, 9, 8, 0),
                java.util.Arrays.stream(middle.indices()).boxed().toList());
        assertEquals(11f, middle.values()[7]);
    }

    @Test
    void rejectsColumnsOutsideTheShape() {
        CsrMatrix.Builder b = CsrMatrix.builder(3);
        assertThrows(IllegalArgumentException.class, () -> b.addRow(new int[] {3}, new float[] {1}));
        assertThrows(
                IllegalArgumentException.class,
                () -> CsrMatrix.of(3, new long[] {0, 2}, new int[] {0}, new float[] {1}));
    }

    @Test
    void ofCopiesScipyArrays() {
        CsrMatrix m = CsrMatrix.of(4, new long[] {0, 2, 2, 3}, new int[] {1, 3, 0}, new float[] {5, 6, 7});
        assertEquals(3, m.nRows());
        assertEquals(3, m.nnz());
        assertEquals(3, m.index(1));
        assertEquals(7f, m.value(2));
    }
}
