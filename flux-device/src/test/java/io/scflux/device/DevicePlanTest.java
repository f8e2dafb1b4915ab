/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowReader;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import org.junit.jupiter.api.Test;

class DevicePlanTest {

    /** Bytes of buffers for blocks of {@code rows} rows and {@code nnz} entries: int32 indptr, indices, values and
     * output, float64 row factors. */
    private static long buffers(long rows, long nnz) {
        return 4 * (rows + 1) + 4 * nnz + 4 * nnz + 4 * nnz + 8 * rows;
    }

    /** 6 million rows of 1,000 entries (6e9 in all, beyond int32) that only report their counts. */
    private static final BlockSource ATLAS = new BlockSource() {
        @Override
        public long nRows() {
            return 6_000_000;
        }

        @Override
        public int nCols() {
            return 30_000;
        }

        @Override
        public void rowNnz(long rowFrom, int count, int[] out) {
            java.util.Arrays.fill(out, 0, count, 1000);
        }

        @Override
        public RowReader open() {
            throw new UnsupportedOperationException("planning reads no block");
        }
    };

    @Test
    void anAtlasBeyondInt32IsCutInBlocksBelow2To31ThatFitTheCap() {
        long budget = DevicePlan.blockBudget(256L << 20);
        DevicePlan p = DevicePlan.of(ATLAS, PlanTarget.DEFAULT, budget);
        BlockPlan plan = p.plan();
        assertEquals(6_000_000_000L, plan.totalNnz());
        long widest = 0;
        int rows = 0;
        for (int i = 0; i < plan.size(); i++) {
            assertTrue(plan.nnz(i) < (1L << 31), "block " + i);
            widest = Math.max(widest, plan.nnz(i));
            rows = Math.max(rows, plan.nRows(i));
        }
        assertEquals(buffers(rows, widest), p.bufferBytes(), "sized by the largest block");
        assertTrue(p.bufferBytes() <= 128L << 20, p.toString());
        // the default target (4 Mi entries) needs about 50 MiB of buffers: it fits and is kept
        assertEquals(PlanTarget.DEFAULT, plan.target());
    }

    @Test
    void aSmallCapCutsSmallerBlocks() {
        long budget = 1 << 20;
        DevicePlan p = DevicePlan.of(ATLAS, PlanTarget.DEFAULT, budget);
        assertTrue(p.bufferBytes() <= budget, p.toString());
        assertTrue(p.plan().target().chunkNnz() < PlanTarget.DEFAULT_CHUNK_NNZ, p.toString());
        // doubling the chunk would not fit: the largest target that fits is kept
        long chunk = p.plan().target().chunkNnz();
        int maxRows = p.plan().target().maxRows();
        assertTrue(buffers(maxRows, chunk * 2) > budget, p.toString());

        CsrMatrix m = Matrices.random(2000, 50, 0.2, 3);
        DevicePlan small = DevicePlan.of(m, PlanTarget.DEFAULT, 4096);
        for (int i = 0; i < small.plan().size(); i++) {
            assertTrue(buffers(small.plan().nRows(i), small.plan().nnz(i)) <= 4096, "block " + i);
        }
    }

    @Test
    void aCapTooSmallForOneRowSaysSo() {
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> DevicePlan.of(ATLAS, PlanTarget.DEFAULT, 10_000));
        assertTrue(e.getMessage().contains("has a row of 1000 entries"), e.getMessage());
        assertTrue(e.getMessage().contains("raise --device-mem-mb"), e.getMessage());
    }
}
