/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A row block's worth of reusable arrays: a reader decodes rows into them ({@link RowReader#readInto}) and a pass
 * that is done with each block before it takes the next gives them back ({@link #release}), so that a pass over a
 * file allocates no block arrays beyond its first few blocks (a 2^20-entry block's 8 MB is humongous in G1).
 *
 * <p>What it holds reads as a {@link RowBlock} does: {@code indptr()[0..nRows]} from 0 to {@code nnz},
 * {@code indices()} and {@code values()} from 0 to {@code nnz}; but the arrays may be longer than the block, and the
 * next read into the buffer overwrites them. A consumer that keeps a block keeps its {@link #copy()}.
 */
public final class BlockBuffer {

    /** What lends buffers to a pass's reads and takes them back ({@code BlockBuffers}). */
    interface Pool {

        /** The account the pool's buffers are reserved in. */
        MemoryAccount account();

        /** Accounts {@code bytes} more, a lent buffer having grown its arrays. */
        void grew(long bytes);

        /** Takes {@code b} back for a later read. */
        void giveBack(BlockBuffer b);
    }

    /** The pool that lent this buffer and takes it back, or null for a buffer of one's own. */
    private final @Nullable Pool pool;

    private int[] indptr;
    private int[] indices;
    private float[] values;
    /** A reader's room for its own numbers while it decodes (a file's int64 row pointers). */
    private long[] longs = new long[0];

    private int blockIndex = -1;
    private long rowStart;
    private int nRows;
    private int nCols;
    private int nnz;

    /** An empty buffer of one's own, grown by the reads into it; {@link #release} does nothing. */
    public BlockBuffer() {
        this(null, 0, 0);
    }

    /** A buffer of {@code pool}'s for blocks of up to {@code rows} rows and {@code entries} entries. */
    BlockBuffer(@Nullable Pool pool, int rows, int entries) {
        this.pool = pool;
        this.indptr = new int[rows + 1];
        this.indices = new int[entries];
        this.values = new float[entries];
    }

    /** The row pointer array to read a block of {@code rows} rows into: this buffer's, grown when it is too short. */
    public int[] indptrFor(int rows) {
        if (indptr.length <= rows) {
            indptr = new int[grown(indptr.length, rows + 1L, Integer.BYTES, "row pointers")];
        }
        return indptr;
    }

    /** The column index array to read a block of {@code entries} entries into, grown when it is too short. */
    public int[] indicesFor(int entries) {
        if (indices.length < entries) {
            indices = new int[grown(indices.length, entries, Integer.BYTES, "indices")];
        }
        return indices;
    }

    /** The value array to read a block of {@code entries} entries into, grown when it is too short. */
    public float[] valuesFor(int entries) {
        if (values.length < entries) {
            values = new float[grown(values.length, entries, Float.BYTES, "values")];
        }
        return values;
    }

    /**
     * Room for {@code n} longs that a reader needs while it decodes into this buffer (a file's int64 row pointers,
     * before they become local), grown when too short; not part of the block.
     */
    public long[] longsFor(int n) {
        if (longs.length < n) {
            longs = new long[grown(longs.length, n, Long.BYTES, "reader room")];
        }
        return longs;
    }

    /**
     * The length an array of {@code have} elements of {@code elementBytes} grows to for {@code need}, checked against
     * the caps of the pool's account (the host's, the memory budget, without a pool) and accounted in it.
     */
    private int grown(int have, long need, int elementBytes, String what) {
        int n = (pool != null ? pool.account() : MemoryAccount.host())
                .requireArray(need, elementBytes, "a block buffer's " + what);
        if (pool != null) {
            pool.grew((long) (n - have) * elementBytes);
        }
        return n;
    }

    /**
     * Marks the arrays, once read into, as holding block {@code blockIndex}: rows {@code [rowStart, rowStart + nRows)}
     * of a matrix of {@code nCols} columns, their entries counted by {@code indptr[nRows]}. Checks what
     * {@link RowBlock#of} checks that is cheap: the pointers start at 0 and end within the arrays.
     */
    public BlockBuffer hold(int blockIndex, long rowStart, int nRows, int nCols) {
        if (blockIndex < 0 || rowStart < 0 || nRows < 0 || nCols < 0) {
            throw new IllegalArgumentException("negative blockIndex, rowStart, nRows or nCols: " + blockIndex + ", "
                    + rowStart + ", " + nRows + ", " + nCols);
        }
        if (indptr.length < nRows + 1 || indptr[0] != 0) {
            throw new IllegalArgumentException("a buffer's indptr must start at 0 and hold " + (nRows + 1)
                    + " pointers (it holds " + indptr.length + ")");
        }
        int entries = indptr[nRows];
        if (entries < 0 || entries > indices.length || entries > values.length) {
            throw new IllegalArgumentException("indptr ends at " + entries + " but the buffer holds " + indices.length
                    + " indices and " + values.length + " values");
        }
        this.blockIndex = blockIndex;
        this.rowStart = rowStart;
        this.nRows = nRows;
        this.nCols = nCols;
        this.nnz = entries;
        return this;
    }

    /** Copies {@code block} (on the heap) in: what a reader that cannot decode into a buffer does. */
    public BlockBuffer fill(RowBlock block) {
        int rows = block.nRows();
        int entries = block.nnz();
        System.arraycopy(block.indptr(), 0, indptrFor(rows), 0, rows + 1);
        System.arraycopy(block.indices(), 0, indicesFor(entries), 0, entries);
        System.arraycopy(block.values(), 0, valuesFor(entries), 0, entries);
        return hold(block.blockIndex(), block.rowStart(), rows, block.nCols());
    }

    /** The block held, as a {@link RowBlock} of its own arrays (copied: the buffer may be read into again). */
    public RowBlock copy() {
        return RowBlock.of(
                blockIndex,
                rowStart,
                nCols,
                Arrays.copyOf(indptr, nRows + 1),
                Arrays.copyOf(indices, nnz),
                Arrays.copyOf(values, nnz));
    }

    /**
     * Gives the buffer back to the pass that lent it, for a later read: the caller no longer reads it. A buffer of
     * one's own stays with its owner.
     */
    public void release() {
        if (pool != null) {
            pool.giveBack(this);
        }
    }

    /** Bytes of the arrays, as the pool's account holds them. */
    public long bytes() {
        return 4L * (indptr.length + indices.length + values.length) + 8L * longs.length;
    }

    /** The index of the block held ({@code -1} before the first read). */
    public int blockIndex() {
        return blockIndex;
    }

    public long rowStart() {
        return rowStart;
    }

    public int nRows() {
        return nRows;
    }

    public int nCols() {
        return nCols;
    }

    public int nnz() {
        return nnz;
    }

    /** Local row pointers: entries {@code [0, nRows]}, from 0 to {@code nnz}. Not a copy. */
    public int[] indptr() {
        return indptr;
    }

    /** Column indices: entries {@code [0, nnz)}. Not a copy. */
    public int[] indices() {
        return indices;
    }

    /** Values: entries {@code [0, nnz)}. Not a copy. */
    public float[] values() {
        return values;
    }

    @Override
    public String toString() {
        return "BlockBuffer#" + blockIndex + "[rows " + rowStart + ".." + (rowStart + nRows) + ", " + nCols
                + " cols, nnz " + nnz + " of " + indices.length + "]";
    }
}
