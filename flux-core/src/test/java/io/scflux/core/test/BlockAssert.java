/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.RowBlock;
import java.util.Arrays;

/**
 * Fluent assertions on one {@link RowBlock}, for testing a pipeline block by block (in a {@code StepVerifier}'s
 * {@code assertNext}): {@code BlockAssert.assertThat(block).startsAtRow(0).hasRows(2).hasRow(1, cols, values)}.
 */
public final class BlockAssert {

    private final RowBlock block;

    private BlockAssert(RowBlock block) {
        this.block = block;
    }

    public static BlockAssert assertThat(RowBlock block) {
        assertTrue(block != null, "expected a block, got null");
        return new BlockAssert(block);
    }

    /** The block holds {@code n} rows. */
    public BlockAssert hasRows(int n) {
        assertEquals(n, block.nRows(), () -> block + ": rows");
        return this;
    }

    /** The block's first row is global row {@code row}. */
    public BlockAssert startsAtRow(long row) {
        assertEquals(row, block.rowStart(), () -> block + ": first row");
        return this;
    }

    /** The block has {@code n} columns. */
    public BlockAssert hasColumns(int n) {
        assertEquals(n, block.nCols(), () -> block + ": columns");
        return this;
    }

    /** The block stores {@code n} entries. */
    public BlockAssert hasNnz(int n) {
        assertEquals(n, block.nnz(), () -> block + ": stored entries");
        return this;
    }

    /** Local row {@code row} stores exactly these columns with these values (bit for bit), in this order. */
    public BlockAssert hasRow(int row, int[] columns, float[] values) {
        assertTrue(row >= 0 && row < block.nRows(), () -> block + ": no local row " + row);
        int from = block.indptr()[row];
        int to = block.indptr()[row + 1];
        assertArrayEquals(
                columns, Arrays.copyOfRange(block.indices(), from, to), () -> block + ": columns of row " + row);
        assertArrayEquals(values, Arrays.copyOfRange(block.values(), from, to), () -> block + ": values of row " + row);
        return this;
    }

    /** Every stored value is within {@code relative} of what {@code expected} gives for the same value's position. */
    public BlockAssert hasValuesCloseTo(float[] expected, double relative) {
        assertEquals(expected.length, block.nnz(), () -> block + ": stored entries");
        for (int i = 0; i < expected.length; i++) {
            double e = expected[i];
            double a = block.values()[i];
            int at = i;
            assertTrue(
                    Math.abs(a - e) <= relative * Math.max(Math.abs(e), Double.MIN_NORMAL),
                    () -> block + ": entry " + at + " is " + a + ", expected " + e + " within " + relative);
        }
        return this;
    }

    /** indptr starts at 0 and never decreases, and every column is in {@code [0, nCols)}. */
    public BlockAssert isWellFormed() {
        int[] ip = block.indptr();
        assertEquals(0, ip[0], () -> block + ": indptr starts at " + ip[0]);
        for (int r = 0; r < block.nRows(); r++) {
            int row = r;
            assertTrue(ip[r + 1] >= ip[r], () -> block + ": indptr decreases at row " + row);
        }
        for (int k = 0; k < block.nnz(); k++) {
            int c = block.indices()[k];
            assertTrue(c >= 0 && c < block.nCols(), () -> block + ": column " + c + " out of range");
        }
        return this;
    }
}
