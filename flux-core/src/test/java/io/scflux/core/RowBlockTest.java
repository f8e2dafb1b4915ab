/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RowBlock#stack}: blocks' rows in order as one block, empty blocks and empty rows included. */
class RowBlockTest {

    @Test
    void stackGivesTheRowsOfTheBlocksInOrder() {
        CsrMatrix m = Matrices.random(57, 30, 0.2, 5);
        RowBlock whole = m.open().read(0, 0, 57);
        List<RowBlock> parts = new ArrayList<>();
        int[] cuts = {0, 10, 10, 11, 40, 57};
        for (int i = 0; i + 1 < cuts.length; i++) {
            parts.add(m.open().read(i, cuts[i], cuts[i + 1]));
        }
        assertEquals(whole, RowBlock.stack(parts, 0, 0, 30, DType.FLOAT32), "rows, columns and values");
        RowBlock numbered = RowBlock.stack(parts.subList(3, 5), 7, 11, 30, DType.FLOAT32);
        assertEquals(7, numbered.blockIndex());
        assertEquals(11, numbered.rowStart());
        assertEquals(m.open().read(7, 11, 57).nnz(), numbered.nnz());
        assertEquals(RowBlock.empty(2, 4, 0, 30), RowBlock.stack(List.of(), 2, 4, 30, DType.FLOAT32));
    }
}
