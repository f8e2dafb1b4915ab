/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Rows and columns of another source, selected by position in any order (repeats allowed), without copying it:
 * each block is read from the base in runs of consecutive rows and its columns re-indexed on the way.
 */
public final class SubsetSource implements BlockSource, java.io.Serializable {

    /** Base rows counted per call while planning a row selection. */
    private static final int COUNT_WINDOW = 4096;

    private final BlockSource base;
    private final int @Nullable [] rows;
    private final int nCols;
    /** Base column c goes to output columns mapTo[mapPtr[c] .. mapPtr[c + 1]); null when all columns are kept. */
    private final int @Nullable [] mapPtr;

    private final int @Nullable [] mapTo;
    /**
     * Base column c goes to output column {@code keep[c]}, or nowhere when negative: the one lookup per entry of the
     * usual selection (a mask: distinct columns in increasing order); null otherwise.
     */
    private final int @Nullable [] keep;

    private final boolean sortedColumns;
    private final int maxRepeat;

    /**
     * The rows {@code rows} and columns {@code cols} of {@code base}, by position in any order; null means all of that
     * axis.
     *
     * @param base the source selected from
     * @param rows the base rows, in output order, or null for all
     * @param cols the base columns, in output order, or null for all
     */
    public SubsetSource(BlockSource base, int @Nullable [] rows, int @Nullable [] cols) {
        this.base = base;
        this.rows = rows;
        if (cols == null) {
            nCols = base.nCols();
            mapPtr = null;
            mapTo = null;
            keep = null;
            sortedColumns = true;
            maxRepeat = 1;
        } else {
            nCols = cols.length;
            int baseCols = base.nCols();
            mapPtr = new int[baseCols + 1];
            for (int c : cols) {
                if (c < 0 || c >= baseCols) {
                    throw new IndexOutOfBoundsException("column " + c + " outside [0, " + baseCols + ")");
                }
                mapPtr[c + 1]++;
            }
            int repeat = 0;
            for (int c = 0; c < baseCols; c++) {
                repeat = Math.max(repeat, mapPtr[c + 1]);
                mapPtr[c + 1] += mapPtr[c];
            }
            maxRepeat = Math.max(1, repeat);
            mapTo = new int[cols.length];
            int[] fill = Arrays.copyOf(mapPtr, baseCols);
            boolean sorted = true;
            for (int j = 0; j < cols.length; j++) {
                mapTo[fill[cols[j]]++] = j;
                sorted &= j == 0 || cols[j] > cols[j - 1];
            }
            sortedColumns = sorted;
            if (sorted && maxRepeat == 1) {
                keep = new int[baseCols];
                Arrays.fill(keep, -1);
                for (int j = 0; j < cols.length; j++) {
                    keep[cols[j]] = j;
                }
            } else {
                keep = null;
            }
        }
    }

    @Override
    public long nRows() {
        return rows == null ? base.nRows() : rows.length;
    }

    @Override
    public int nCols() {
        return nCols;
    }

    @Override
    public DType dtype() {
        return base.dtype();
    }

    @Override
    public boolean isDense() {
        return base.isDense();
    }

    /**
     * Entry counts of the base rows: exact without a column selection, an upper bound with one. The selected rows
     * are visited in base order and counted a window of base rows at a time, so a file is asked a few times, not
     * once per row.
     */
    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        if (rows == null) {
            base.rowNnz(rowFrom, count, out);
        } else {
            int from = Math.toIntExact(rowFrom);
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = (long) rows[from + i] << 32 | i;
            }
            Arrays.sort(keys);
            int[] window = new int[COUNT_WINDOW];
            int i = 0;
            while (i < count) {
                long first = keys[i] >>> 32;
                int span = (int) Math.min(COUNT_WINDOW, base.nRows() - first);
                base.rowNnz(first, span, window);
                while (i < count && (keys[i] >>> 32) < first + span) {
                    out[(int) keys[i]] = window[(int) ((keys[i] >>> 32) - first)];
                    i++;
                }
            }
        }
        if (maxRepeat > 1) {
            for (int i = 0; i < count; i++) {
                out[i] = (int) Math.min(nCols, (long) out[i] * maxRepeat);
            }
        }
    }

    /** Length of the run of consecutive base rows starting at output row {@code at}, not past {@code end}. */
    private int runLength(int[] rows, int at, int end) {
        int n = 1;
        while (at + n < end && rows[at + n] == rows[at + n - 1] + 1) {
            n++;
        }
        return n;
    }

    @Override
    public RowReader open() {
        return selecting(base.open());
    }

    @Override
    public RowReader open(Pass pass) {
        return selecting(base.open(pass));
    }

    /** {@code baseReader}, the base's, its rows read as this selection's. */
    private RowReader selecting(RowReader baseReader) {
        return RowReader.over(baseReader, (blockIndex, from, to) -> subset(baseReader, blockIndex, from, to));
    }

    /**
     * Rows {@code [from, to)} of the subset: the base rows are read in runs of consecutive rows, their kept entries
     * counted, and the arrays allocated once at their exact size.
     */
    private RowBlock subset(RowReader reader, int blockIndex, long from, long to) {
        int n = Math.toIntExact(to - from);
        List<RowBlock> runs = new ArrayList<>();
        long nnz = 0;
        for (int i = 0; i < n; ) {
            int at = (int) from + i;
            int run = rows == null ? n : runLength(rows, at, (int) to);
            long baseRow = rows == null ? at : rows[at];
            RowBlock b = reader.read(0, baseRow, baseRow + run);
            nnz += kept(b);
            runs.add(b);
            i += run;
        }
        if (runs.stream().allMatch(b -> b.exact() == null)) {
            return gather(runs, n, nnz, blockIndex, from);
        }
        // values stored as float32 would not hold them: the runs as one block, whose stored values follow its entries
        long total = nnz;
        RowBlock joined = RowBlock.stack(runs, 0, 0, base.nCols(), base.dtype());
        return joined.moved(0f, (b, fill) -> gather(List.of(b), n, total, blockIndex, from));
    }

    /** The subset's rows {@code [from, from + n)}, {@code nnz} entries, gathered from {@code runs} of base rows. */
    private RowBlock gather(List<RowBlock> runs, int n, long nnz, int blockIndex, long from) {
        int[] indptr = new int[n + 1];
        int[] idx = new int[Math.toIntExact(nnz)];
        float[] val = new float[idx.length];
        int at = 0;
        int row = 0;
        RowSorter sorter = sortedColumns ? null : new RowSorter();
        for (RowBlock b : runs) {
            int[] bp = b.indptr();
            int[] bi = b.indices();
            float[] bv = b.values();
            if (keep != null) {
                for (int r = 0; r < b.nRows(); r++) {
                    for (int k = bp[r], end = bp[r + 1]; k < end; k++) {
                        int c = keep[bi[k]];
                        if (c >= 0) {
                            idx[at] = c;
                            val[at++] = bv[k];
                        }
                    }
                    indptr[++row] = at;
                }
                continue;
            }
            for (int r = 0; r < b.nRows(); r++) {
                int rowStart = at;
                for (int k = bp[r]; k < bp[r + 1]; k++) {
                    int c = bi[k];
                    if (mapPtr == null || mapTo == null) { // both or neither
                        idx[at] = c;
                        val[at++] = bv[k];
                    } else {
                        for (int m = mapPtr[c]; m < mapPtr[c + 1]; m++) {
                            idx[at] = mapTo[m];
                            val[at++] = bv[k];
                        }
                    }
                }
                if (sorter != null) { // columns not sorted
                    sorter.sort(idx, val, rowStart, at);
                }
                indptr[++row] = at;
            }
        }
        return RowBlock.of(blockIndex, from, nCols, indptr, idx, val);
    }

    /** How many entries block {@code b} of the base has in the subset's columns. */
    private long kept(RowBlock b) {
        if (mapPtr == null) {
            return b.nnz();
        }
        int[] bi = b.indices();
        long kept = 0;
        if (keep != null) {
            for (int k = 0, end = b.nnz(); k < end; k++) {
                kept += ~keep[bi[k]] >>> 31;
            }
            return kept;
        }
        for (int k = 0, end = b.nnz(); k < end; k++) {
            int c = bi[k];
            kept += mapPtr[c + 1] - mapPtr[c];
        }
        return kept;
    }

    @Override
    public Set<Path> files() {
        return base.files();
    }

    @Override
    public String describe() {
        return "subset[" + nRows() + " x " + nCols + "] of " + base.describe();
    }
}
