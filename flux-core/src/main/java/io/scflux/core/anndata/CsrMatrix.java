/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.util.Arrays;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A CSR matrix held in memory. Its row pointers are {@code long} and its indices and values are stored in pages, so
 * it holds more than 2^31 nonzeros; it streams as row blocks like any other source.
 */
public final class CsrMatrix implements BlockSource {

    static final int DEFAULT_PAGE_SHIFT = 30;

    private final int nCols;
    private final long[] indptr;
    private final int[][] indexPages;
    private final float[][] valuePages;
    private final int pageShift;
    private final DType dtype;

    private CsrMatrix(int nCols, long[] indptr, int[][] indexPages, float[][] valuePages, int pageShift, DType dtype) {
        this.nCols = nCols;
        this.indptr = indptr;
        this.indexPages = indexPages;
        this.valuePages = valuePages;
        this.pageShift = pageShift;
        this.dtype = dtype;
    }

    /**
     * A matrix over scipy-style arrays. The arrays are checked (monotone indptr, indices in range) and copied into
     * pages.
     */
    public static CsrMatrix of(int nCols, long[] indptr, int[] indices, float[] values) {
        if (indptr.length == 0
                || indptr[0] != 0
                || indptr[indptr.length - 1] != indices.length
                || indices.length != values.length) {
            throw new IllegalArgumentException(
                    "indptr must run from 0 to nnz = " + indices.length + " and values must have nnz entries");
        }
        Builder b = builder(nCols);
        for (int r = 0; r + 1 < indptr.length; r++) {
            int from = (int) indptr[r];
            int to = (int) indptr[r + 1];
            b.addRow(Arrays.copyOfRange(indices, from, to), Arrays.copyOfRange(values, from, to));
        }
        return b.build();
    }

    public static Builder builder(int nCols) {
        return new Builder(nCols, DEFAULT_PAGE_SHIFT);
    }

    static Builder builder(int nCols, int pageShift) {
        return new Builder(nCols, pageShift);
    }

    /** Collects a flux of consecutive blocks (row order, starting at row 0) into memory. */
    public static Mono<CsrMatrix> collect(Flux<RowBlock> blocks, int nCols) {
        return blocks.reduceWith(() -> builder(nCols), Builder::add).map(Builder::build);
    }

    @Override
    public long nRows() {
        return indptr.length - 1;
    }

    @Override
    public int nCols() {
        return nCols;
    }

    public long nnz() {
        return indptr[indptr.length - 1];
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    /** Same entries, declared to come from a file of another value type (what a writer will write back). */
    public CsrMatrix withDtype(DType type) {
        return new CsrMatrix(nCols, indptr, indexPages, valuePages, pageShift, type);
    }

    /** Row pointer {@code row} (global, cumulative). */
    public long indptr(long row) {
        return indptr[Math.toIntExact(row)];
    }

    /** Column index of stored entry {@code k}. */
    public int index(long k) {
        return indexPages[(int) (k >>> pageShift)][(int) (k & ((1L << pageShift) - 1))];
    }

    /** Value of stored entry {@code k}. */
    public float value(long k) {
        return valuePages[(int) (k >>> pageShift)][(int) (k & ((1L << pageShift) - 1))];
    }

    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        int r = Math.toIntExact(rowFrom);
        for (int i = 0; i < count; i++) {
            out[i] = (int) (indptr[r + i + 1] - indptr[r + i]);
        }
    }

    @Override
    public RowReader open() {
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                int n = entries(from, to);
                int[] local = new int[Math.toIntExact(to - from) + 1];
                int[] idx = new int[n];
                float[] val = new float[n];
                copyRows(from, to, local, idx, val);
                return RowBlock.of(blockIndex, from, nCols, local, idx, val);
            }

            @Override
            public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
                int n = entries(from, to);
                int rows = Math.toIntExact(to - from);
                copyRows(from, to, into.indptrFor(rows), into.indicesFor(n), into.valuesFor(n));
                into.hold(blockIndex, from, rows, nCols);
            }

            @Override
            public void close() {}
        };
    }

    /** The entries of rows {@code [from, to)}, if one block may hold them. */
    private int entries(long from, long to) {
        long nnz = indptr[Math.toIntExact(to)] - indptr[Math.toIntExact(from)];
        if (nnz > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "rows " + from + ".." + to + " hold " + nnz + " entries, more than one block can");
        }
        return (int) nnz;
    }

    /** Rows {@code [from, to)}: local row pointers, indices and values into the first entries of the arrays given. */
    private void copyRows(long from, long to, int[] local, int[] idx, float[] val) {
        int f = Math.toIntExact(from);
        int t = Math.toIntExact(to);
        long base = indptr[f];
        for (int r = f; r <= t; r++) {
            local[r - f] = (int) (indptr[r] - base);
        }
        int n = (int) (indptr[t] - base);
        copyOut(indexPages, base, idx, n);
        copyOut(valuePages, base, val, n);
    }

    private void copyOut(Object[] pages, long offset, Object dst, int len) {
        int done = 0;
        long pageSize = 1L << pageShift;
        while (done < len) {
            long k = offset + done;
            int page = (int) (k >>> pageShift);
            int pos = (int) (k & (pageSize - 1));
            int n = (int) Math.min(len - done, pageSize - pos);
            System.arraycopy(pages[page], pos, dst, done, n);
            done += n;
        }
    }

    @Override
    public String describe() {
        return "CsrMatrix[" + nRows() + " x " + nCols + ", nnz " + nnz() + "]";
    }

    /** Appends rows in order; pages grow as needed, up to {@code 2^pageShift} entries each. */
    public static final class Builder {
        private final int nCols;
        private final int pageShift;
        private long[] indptr = new long[1025];
        private int rows;
        private int[][] indexPages = new int[0][];
        private float[][] valuePages = new float[0][];
        private DType dtype = DType.FLOAT32;

        private Builder(int nCols, int pageShift) {
            if (nCols < 0) {
                throw new IllegalArgumentException("negative column count " + nCols);
            }
            this.nCols = nCols;
            this.pageShift = pageShift;
        }

        public Builder dtype(DType type) {
            this.dtype = type;
            return this;
        }

        /** Appends the rows of a block; blocks must come in row order with no gap. */
        public Builder add(RowBlock block) {
            if (block.rowStart() != rows) {
                throw new IllegalArgumentException("expected a block starting at row " + rows + ", got " + block);
            }
            if (block.nCols() != nCols) {
                throw new IllegalArgumentException("expected " + nCols + " columns, got " + block);
            }
            int[] ip = block.indptr();
            for (int r = 0; r < block.nRows(); r++) {
                append(block.indices(), block.values(), ip[r], ip[r + 1]);
            }
            return this;
        }

        /** Appends one row given its column indices and values. */
        public Builder addRow(int[] indices, float[] values) {
            if (indices.length != values.length) {
                throw new IllegalArgumentException(
                        "row " + rows + ": " + indices.length + " indices, " + values.length + " values");
            }
            append(indices, values, 0, indices.length);
            return this;
        }

        private void append(int[] idx, float[] val, int from, int to) {
            for (int k = from; k < to; k++) {
                if (idx[k] < 0 || idx[k] >= nCols) {
                    throw new IllegalArgumentException(
                            "row " + rows + ": column index " + idx[k] + " outside [0, " + nCols + ")");
                }
            }
            long start = indptr[rows];
            reserve(start, start + (to - from));
            long pageSize = 1L << pageShift;
            int done = 0;
            int len = to - from;
            while (done < len) {
                long k = start + done;
                int page = (int) (k >>> pageShift);
                int pos = (int) (k & (pageSize - 1));
                int n = (int) Math.min(len - done, pageSize - pos);
                System.arraycopy(idx, from + done, indexPages[page], pos, n);
                System.arraycopy(val, from + done, valuePages[page], pos, n);
                done += n;
            }
            if (rows + 2 > indptr.length) {
                indptr = Arrays.copyOf(indptr, indptr.length * 2);
            }
            rows++;
            indptr[rows] = start + len;
        }

        private void reserve(long start, long capacity) {
            long pageSize = 1L << pageShift;
            int needPages = (int) ((capacity + pageSize - 1) >>> pageShift);
            if (needPages > indexPages.length) {
                int old = indexPages.length;
                indexPages = Arrays.copyOf(indexPages, needPages);
                valuePages = Arrays.copyOf(valuePages, needPages);
                for (int p = old; p < needPages; p++) {
                    indexPages[p] = new int[0];
                    valuePages[p] = new float[0];
                }
            }
            for (int p = (int) (start >>> pageShift); p < needPages; p++) {
                long pageEnd = Math.min(capacity - ((long) p << pageShift), pageSize);
                if (indexPages[p].length < pageEnd) {
                    int grown = (int) Math.min(pageSize, Math.max(pageEnd, Math.max(16, 2L * indexPages[p].length)));
                    indexPages[p] = Arrays.copyOf(indexPages[p], grown);
                    valuePages[p] = Arrays.copyOf(valuePages[p], grown);
                }
            }
        }

        public CsrMatrix build() {
            return new CsrMatrix(nCols, Arrays.copyOf(indptr, rows + 1), indexPages, valuePages, pageShift, dtype);
        }
    }
}
