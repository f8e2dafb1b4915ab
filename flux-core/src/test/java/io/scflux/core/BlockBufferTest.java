/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A buffer holds one block at a time in arrays that may be longer than it, reads as the block it holds, and goes back
 * to its pass's pool once: the pool lends it again, accounts what it grows by, and drops it after the pass.
 */
class BlockBufferTest {

    private static final RowBlock TWO_ROWS =
            RowBlock.of(3, 10, 5, new int[] {0, 2, 3}, new int[] {1, 4, 0}, new float[] {1.5f, -2, 7});
    private static final RowBlock ONE_ROW = RowBlock.of(4, 12, 5, new int[] {0, 1}, new int[] {2}, new float[] {9});

    @Test
    void holdsOneBlockAtATimeInArraysThatMayBeLonger() {
        BlockBuffer b = new BlockBuffer();
        assertEquals(TWO_ROWS, b.fill(TWO_ROWS).copy());
        int[] indices = b.indices();
        assertEquals(ONE_ROW, b.fill(ONE_ROW).copy(), "the next block overwrites the first");
        assertSame(indices, b.indices(), "a smaller block reuses the arrays");
        assertEquals(3, b.indices().length);
        assertEquals(1, b.nnz());
        assertEquals(1, b.nRows());
        assertEquals(12, b.rowStart());
        assertEquals(4, b.blockIndex());
    }

    @Test
    void holdChecksWhatTheArraysCanBe() {
        BlockBuffer b = new BlockBuffer();
        int[] ip = b.indptrFor(2);
        ip[0] = 1;
        IllegalArgumentException notZero = assertThrows(IllegalArgumentException.class, () -> b.hold(0, 0, 2, 5));
        assertTrue(notZero.getMessage().contains("must start at 0"), notZero.getMessage());
        ip[0] = 0;
        ip[2] = 4;
        b.indicesFor(4);
        IllegalArgumentException past = assertThrows(IllegalArgumentException.class, () -> b.hold(0, 0, 2, 5));
        assertTrue(
                past.getMessage().contains("indptr ends at 4 but the buffer holds 4 indices and 0 values"),
                past.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.hold(0, 0, 3, 5), "more rows than pointers");
    }

    @Test
    void aPoolLendsItsBuffersAgainAndAccountsThem() {
        BlockPlan plan = BlockPlan.ofIndptr(new long[] {0, 2, 3, 3}, new PlanTarget(2, 2));
        MemoryAccount root = MemoryAccount.root("test", Long.MAX_VALUE);
        BlockBuffers pool = new BlockBuffers(plan, root);
        BlockBuffer a = pool.take();
        long bytes = a.bytes();
        assertEquals(4L * (plan.maxBlockRows() + 1) + 8L * plan.maxBlockNnz(), bytes, "made for the largest block");
        BlockBuffer b = pool.take();
        assertEquals(2 * bytes, root.reserved());
        a.release();
        assertSame(a, pool.take(), "a buffer given back is lent again");
        a.fill(TWO_ROWS);
        assertEquals(2 * bytes + 4 * 2, root.reserved(), "what a buffer grows by is accounted");
        a.release();
        IllegalStateException twice = assertThrows(IllegalStateException.class, a::release);
        assertTrue(twice.getMessage().contains("released twice"), twice.getMessage());
        pool.close();
        assertEquals(0, root.reserved());
        assertEquals(2 * bytes + 8, root.peak());
        b.release(); // after the pass: dropped, no error
        assertEquals(0, root.reserved());
        assertTrue(root.children().isEmpty(), "the pass's account is closed");
    }
}
