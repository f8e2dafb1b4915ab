/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Arrays;

/**
 * The partition of a source's rows into blocks. It is computed from the data (each row's number of stored entries)
 * and a {@link PlanTarget} only, never from thread count, scheduling or cache state: this is what makes every
 * result reproducible bit for bit.
 *
 * <p>A block closes before the row that would take it over {@code chunkNnz} entries (a single larger row gets a block
 * of its own) or when it reaches {@code maxRows} rows.
 */
public final class BlockPlan implements java.io.Serializable {

    private final PlanTarget target;
    private final long[] rowBounds;
    private final long[] nnzBounds;

    private BlockPlan(PlanTarget target, long[] rowBounds, long[] nnzBounds) {
        this.target = target;
        this.rowBounds = rowBounds;
        this.nnzBounds = nnzBounds;
    }

    /**
     * A builder that is fed every row's entry count in row order.
     *
     * @param target the block sizes aimed at
     * @return an empty builder
     */
    public static Builder builder(PlanTarget target) {
        return new Builder(target);
    }

    /**
     * The plan of a CSR matrix given its (global, cumulative) row pointers.
     *
     * @param indptr the matrix's row pointers, {@code nRows + 1} of them
     * @param target the block sizes aimed at
     * @return the plan
     */
    public static BlockPlan ofIndptr(long[] indptr, PlanTarget target) {
        Builder b = builder(target);
        for (int r = 1; r < indptr.length; r++) {
            b.addRow(indptr[r] - indptr[r - 1]);
        }
        return b.build();
    }

    /**
     * Blocks of {@code rowsPerBlock} rows (the last one shorter), each row weighing {@code nnzPerRow}: the plan of dense
     * data, whose rows are aligned with the file's chunks.
     *
     * @param nRows the rows
     * @param rowsPerBlock rows per block, at least 1
     * @param nnzPerRow the entries each row counts for
     * @param target the target the plan is said to be cut for
     * @return the plan
     */
    public static BlockPlan uniform(long nRows, int rowsPerBlock, long nnzPerRow, PlanTarget target) {
        if (rowsPerBlock < 1) {
            throw new IllegalArgumentException("rowsPerBlock must be at least 1, got " + rowsPerBlock);
        }
        int n = Math.toIntExact((nRows + rowsPerBlock - 1) / rowsPerBlock);
        long[] rows = new long[n + 1];
        long[] nnz = new long[n + 1];
        for (int i = 1; i <= n; i++) {
            rows[i] = Math.min(nRows, (long) i * rowsPerBlock);
            nnz[i] = rows[i] * nnzPerRow;
        }
        return new BlockPlan(target, rows, nnz);
    }

    /**
     * The plan of dense rows of {@code nCols} entries: blocks of as many rows as fit {@code chunkNnz} entries, at most
     * {@code maxRows}, rounded down to a multiple of {@code rowAlignment} rows when they span at least that many (a
     * file's chunk rows, so that no chunk is decoded twice; 1 for none).
     *
     * @param nRows the rows
     * @param nCols the entries of each row
     * @param target the block sizes aimed at
     * @param rowAlignment the file's chunk rows, or 1
     * @return the plan
     */
    public static BlockPlan dense(long nRows, int nCols, PlanTarget target, int rowAlignment) {
        long rows = Math.max(1, Math.min(target.maxRows(), target.chunkNnz() / Math.max(1, nCols)));
        if (rowAlignment > 1 && rows >= rowAlignment) {
            rows -= rows % rowAlignment;
        }
        return uniform(nRows, (int) rows, nCols, target);
    }

    /** How a source reports the stored entries of its rows ({@link BlockSource#rowNnz}'s form). */
    @FunctionalInterface
    public interface RowCounts {

        /**
         * Writes the entries of rows {@code [rowFrom, rowFrom + count)} into {@code out[0, count)}.
         *
         * @param rowFrom the first row
         * @param count how many rows
         * @param out where the counts go
         */
        void rowNnz(long rowFrom, int count, int[] out);
    }

    /**
     * The plan of {@code nRows} rows whose entries {@code counts} reports, read in runs of up to 2^16 rows.
     *
     * @param nRows the rows
     * @param counts their entry counts, as a source's {@code rowNnz}
     * @param target the block sizes aimed at
     * @return the plan
     */
    public static BlockPlan of(long nRows, RowCounts counts, PlanTarget target) {
        Builder b = builder(target);
        int[] run = new int[(int) Math.min(1 << 16, Math.max(1, nRows))];
        for (long r = 0; r < nRows; r += run.length) {
            int n = (int) Math.min(run.length, nRows - r);
            counts.rowNnz(r, n, run);
            for (int i = 0; i < n; i++) {
                b.addRow(run[i]);
            }
        }
        return b.build();
    }

    /**
     * The plans of sources stacked by rows, one after the other: no block spans two of them, so each keeps the blocks
     * it would have alone. All must share one target.
     *
     * @param target the plans' target
     * @param plans the plans, in row order
     * @return the stacked plan
     */
    public static BlockPlan concat(PlanTarget target, java.util.List<BlockPlan> plans) {
        int n = 0;
        for (BlockPlan p : plans) {
            if (!p.target.equals(target)) {
                throw new IllegalArgumentException("plan for " + p.target + " among plans for " + target);
            }
            n += p.size();
        }
        long[] rows = new long[n + 1];
        long[] nnz = new long[n + 1];
        int at = 0;
        for (BlockPlan p : plans) {
            long rowBase = rows[at];
            long nnzBase = nnz[at];
            for (int i = 1; i <= p.size(); i++) {
                rows[at + i] = rowBase + p.rowBounds[i];
                nnz[at + i] = nnzBase + p.nnzBounds[i];
            }
            at += p.size();
        }
        return new BlockPlan(target, rows, nnz);
    }

    /**
     * The target the plan was cut for: with the rows' entry counts, what decides its blocks.
     *
     * @return the target
     */
    public PlanTarget target() {
        return target;
    }

    /**
     * Number of blocks.
     *
     * @return the blocks
     */
    public int size() {
        return rowBounds.length - 1;
    }

    /**
     * Rows over all blocks.
     *
     * @return the rows
     */
    public long totalRows() {
        return rowBounds[rowBounds.length - 1];
    }

    /**
     * Stored entries over all blocks (for a dense source: rows times columns, an upper bound).
     *
     * @return the entries
     */
    public long totalNnz() {
        return nnzBounds[nnzBounds.length - 1];
    }

    /**
     * The first row of a block.
     *
     * @param block a block
     * @return its first row
     */
    public long rowStart(int block) {
        return rowBounds[block];
    }

    /**
     * The row after a block's last.
     *
     * @param block a block
     * @return its end, exclusive
     */
    public long rowEnd(int block) {
        return rowBounds[block + 1];
    }

    /**
     * The rows of a block.
     *
     * @param block a block
     * @return its rows
     */
    public int nRows(int block) {
        return (int) (rowBounds[block + 1] - rowBounds[block]);
    }

    /**
     * Entries before this block, i.e. its offset into the file's data and indices (sparse sources).
     *
     * @param block a block
     * @return the entries of the blocks before it
     */
    public long nnzStart(int block) {
        return nnzBounds[block];
    }

    /**
     * The entries of a block.
     *
     * @param block a block
     * @return its entries
     */
    public long nnz(int block) {
        return nnzBounds[block + 1] - nnzBounds[block];
    }

    /**
     * The largest block's entry count: what a reused buffer has to hold.
     *
     * @return the most entries of a block
     */
    public long maxBlockNnz() {
        long max = 0;
        for (int i = 0; i < size(); i++) {
            max = Math.max(max, nnz(i));
        }
        return max;
    }

    /**
     * The largest block's row count.
     *
     * @return the most rows of a block
     */
    public int maxBlockRows() {
        int max = 0;
        for (int i = 0; i < size(); i++) {
            max = Math.max(max, nRows(i));
        }
        return max;
    }

    /**
     * The block holding {@code row}.
     *
     * @param row a row of the plan
     * @return its block
     */
    public int blockOf(long row) {
        if (row < 0 || row >= totalRows()) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + totalRows() + ")");
        }
        int i = Arrays.binarySearch(rowBounds, row);
        return i >= 0 ? i : -i - 2;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockPlan p
                && target.equals(p.target)
                && Arrays.equals(rowBounds, p.rowBounds)
                && Arrays.equals(nnzBounds, p.nnzBounds);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * target.hashCode() + Arrays.hashCode(rowBounds)) + Arrays.hashCode(nnzBounds);
    }

    @Override
    public String toString() {
        return "BlockPlan[" + size() + " blocks, " + totalRows() + " rows, " + totalNnz() + " nnz, target "
                + target.chunkNnz() + " nnz / " + target.maxRows() + " rows]";
    }

    /** Accumulates rows one by one; see {@link BlockPlan} for the rule. */
    public static final class Builder {
        private final PlanTarget target;
        private long[] rows = new long[16];
        private long[] nnz = new long[16];
        private int blocks;
        private long row;
        private long total;
        private int blockRows;
        private long blockNnz;

        private Builder(PlanTarget target) {
            this.target = target;
        }

        /** Adds the next row, which stores {@code rowNnz} entries. */
        public Builder addRow(long rowNnz) {
            if (rowNnz < 0) {
                throw new IllegalArgumentException("row " + row + " has a negative entry count " + rowNnz);
            }
            if (rowNnz > PlanTarget.MAX_CHUNK_NNZ) {
                throw new IllegalArgumentException("row " + row + " stores " + rowNnz
                        + " entries, more than a block may hold (" + PlanTarget.MAX_CHUNK_NNZ + ")");
            }
            if (blockRows > 0 && (blockNnz + rowNnz > target.chunkNnz() || blockRows == target.maxRows())) {
                close();
            }
            blockRows++;
            blockNnz += rowNnz;
            row++;
            total += rowNnz;
            return this;
        }

        private void close() {
            if (blocks + 1 == rows.length) {
                rows = Arrays.copyOf(rows, rows.length * 2);
                nnz = Arrays.copyOf(nnz, nnz.length * 2);
            }
            blocks++;
            rows[blocks] = row;
            nnz[blocks] = total;
            blockRows = 0;
            blockNnz = 0;
        }

        public BlockPlan build() {
            if (blockRows > 0) {
                close();
            }
            return new BlockPlan(target, Arrays.copyOf(rows, blocks + 1), Arrays.copyOf(nnz, blocks + 1));
        }
    }
}
