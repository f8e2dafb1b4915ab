/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Blocks close before the row that would overflow the target, or at the row cap; one large row stands alone. */
class BlockPlanTest {

    @Test
    void greedyRule() {
        BlockPlan p = BlockPlan.ofIndptr(new long[] {0, 4, 8, 20, 21, 21, 21, 22}, new PlanTarget(10, 3));
        // rows: 4, 4, 12, 1, 0, 0, 1
        assertEquals(4, p.size());
        assertEquals(0, p.rowStart(0));
        assertEquals(2, p.rowEnd(0));
        assertEquals(3, p.rowEnd(1));
        assertEquals(12, p.nnz(1));
        assertEquals(6, p.rowEnd(2));
        assertEquals(1, p.nnz(2));
        assertEquals(7, p.rowEnd(3));
        assertEquals(22, p.totalNnz());
        assertEquals(12, p.maxBlockNnz());
        assertEquals(3, p.maxBlockRows());
        assertEquals(2, p.blockOf(5));
        assertEquals(0, p.blockOf(0));
        assertEquals(3, p.blockOf(6));
    }

    @Test
    void emptySourceHasNoBlocks() {
        BlockPlan p = BlockPlan.ofIndptr(new long[] {0}, PlanTarget.DEFAULT);
        assertEquals(0, p.size());
        assertEquals(0, p.totalRows());
    }

    @Test
    void uniformPlan() {
        BlockPlan p = BlockPlan.uniform(10, 4, 3, PlanTarget.DEFAULT);
        assertEquals(3, p.size());
        assertEquals(8, p.rowStart(2));
        assertEquals(2, p.nRows(2));
        assertEquals(6, p.nnz(2));
    }

    @Test
    void targetsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new PlanTarget(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PlanTarget(1, 0));
        assertThrows(IllegalArgumentException.class, () -> new PlanTarget(PlanTarget.MAX_CHUNK_NNZ + 1, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> BlockPlan.builder(PlanTarget.DEFAULT).addRow(-1));
    }
}
