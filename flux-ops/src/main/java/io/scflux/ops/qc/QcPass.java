/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.qc;

import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import io.scflux.ops.values.SumType;
import io.scflux.ops.values.TypedSums;
import io.scflux.ops.values.ValueCheck;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The one pass over X of calculate_qc_metrics. Per cell: the number of nonzero genes, the total, the total of each
 * qc variable and the sums of the cell's top {@code n} values, written by the folds in this JVM straight into the
 * whole matrix's {@link Cells} (each block its own rows), and by folds in other JVMs into their block's partial, which
 * {@link #cells} copies in. Per gene, summed in the {@link Reducer}'s fixed order: the total and the number of
 * nonzero cells.
 *
 * <p>The pass checks the values it reads as {@link ValueCheck} would for raw counts, in the same loop (the values
 * read once): a row of small whole counts is fine, any other row is scanned and its first value that is no count,
 * or is fractional, kept in the partial's {@link ValueCheck.Findings}.
 *
 * <p>Stored zeros are skipped (scanpy calls {@code eliminate_zeros} first). Sums run in float64 in stored order and
 * are held rounded to X's sum type, as scanpy's are. A row with fewer nonzeros than the largest {@code n} is padded
 * with zeros before its top values are taken, as scanpy's {@code top_segment_proportions} does.
 *
 * <p>Public because {@code Preprocess}, the fused pipeline above the step packages, folds this pass into its read of X.
 */
public final class QcPass implements Reducer<QcPass.Sums> {

    private final int nCols;
    private final boolean[][] qcMasks;
    /** Whether a gene is in any qc variable: one load per entry, and the masks looked at only for those genes. */
    private final boolean[] inAnyQc;

    private final int[] percentTop;
    private final SumType type;
    /**
     * Every cell's results, made with the pass and left out when the pass is serialized: a fold in another JVM finds
     * none and keeps its block's results in its partial. Held from the start, they are not built at the end of the
     * pass from per-block pieces (at 1,000,000 cells of float32 data, one qc variable and four ranks, 28 bytes a
     * cell, twice over, allocated at once).
     */
    private final transient Cells all;

    /**
     * A pass over a matrix of {@code nRows} rows; {@code percentTop} ascending; {@code qcMasks[q][gene]} true for the
     * genes of qc variable {@code q}; sums held in {@code type}.
     */
    QcPass(int nRows, int nCols, boolean[][] qcMasks, int[] percentTop, SumType type) {
        this.nCols = nCols;
        this.qcMasks = qcMasks;
        this.inAnyQc = new boolean[nCols];
        for (boolean[] mask : qcMasks) {
            for (int g = 0; g < nCols; g++) {
                inAnyQc[g] |= mask[g];
            }
        }
        this.percentTop = percentTop;
        this.type = type;
        this.all = new Cells(0, nRows, qcMasks.length, percentTop.length, type);
    }

    /** Cell {@code cell}'s total as held (in X's sum type), once a fold in this JVM has read its row. */
    public double total(int cell) {
        return all.totals.get(cell);
    }

    @Override
    public Sums identity() {
        return new Sums(nCols);
    }

    @Override
    public Sums fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public Sums foldInto(Sums genes, RowBlock block) {
        Cells cells = all;
        int at = Math.toIntExact(block.rowStart());
        if (cells == null) {
            cells = new Cells(block.rowStart(), block.nRows(), qcMasks.length, percentTop.length, type);
            genes.blocks.add(cells);
            at = 0;
        }
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        int maxTop = percentTop.length == 0 ? 0 : percentTop[percentTop.length - 1];
        float[] row = null; // for the selection path, made for the first row that takes it
        double[] qc = new double[qcMasks.length];
        int[] histogram = new int[HISTOGRAM];
        double[] geneSums = genes.sums;
        long[] geneCells = genes.cells;
        for (int i = 0; i < block.nRows(); i++) {
            int from = indptr[i];
            int to = indptr[i + 1];
            int n = 0;
            double total = 0;
            Arrays.fill(qc, 0);
            // every value a whole count under HISTOGRAM: then no value check and top sums from the histogram
            boolean small = true;
            int max = 0;
            for (int k = from; k < to; k++) {
                float v = values[k];
                int c = (int) v;
                if (c == v && c >= 0 && c < HISTOGRAM) {
                    histogram[c]++;
                    max = Math.max(max, c);
                } else {
                    small = false;
                }
                if (v == 0) {
                    continue;
                }
                int gene = indices[k];
                n++;
                total += v;
                geneSums[gene] += v;
                geneCells[gene]++;
                if (inAnyQc[gene]) {
                    for (int q = 0; q < qcMasks.length; q++) {
                        if (qcMasks[q][gene]) {
                            qc[q] += v;
                        }
                    }
                }
            }
            int cell = at + i;
            cells.nGenes[cell] = n;
            cells.totals.set(cell, total);
            for (int q = 0; q < qc.length; q++) {
                cells.qcTotals[q].set(cell, qc[q]);
            }
            if (small) {
                topSums(histogram, max, cells.topSums, cell);
            } else {
                genes.findings.scan(ValueCheck.Expect.COUNTS, indptr, indices, values, from, to, block.rowStart());
                if (maxTop > 0) {
                    if (row == null) {
                        row = new float[Math.max(maxTop, maxRowNnz(indptr))];
                    }
                    selectTopSums(values, from, to, row, maxTop, cells.topSums, cell);
                }
            }
            Arrays.fill(histogram, 0, max + 1, 0);
        }
        return genes;
    }

    @Override
    public Sums merge(Sums earlier, Sums later) {
        for (int g = 0; g < nCols; g++) {
            earlier.sums[g] += later.sums[g];
            earlier.cells[g] += later.cells[g];
        }
        earlier.blocks.addAll(later.blocks);
        earlier.findings.merge(later.findings);
        return earlier;
    }

    /** Rows whose values are all whole counts below this one take the histogram path of {@link #topSums}. */
    private static final int HISTOGRAM = 1024;

    /**
     * Each top-n sum of a cell whose values are whole counts, up to {@code max}, counted by value in
     * {@code histogram}: its top values are taken from the largest down (whole numbers sum exactly, so in any order).
     * Stored zeros were counted at 0 and are never taken.
     */
    private void topSums(int[] histogram, int max, TypedSums[] topSums, int cell) {
        long sum = 0;
        int taken = 0;
        int value = max;
        int left = histogram[value];
        for (int j = 0; j < percentTop.length; j++) {
            while (taken < percentTop[j] && value > 0) {
                int use = Math.min(left, percentTop[j] - taken);
                sum += (long) use * value;
                taken += use;
                left -= use;
                if (left == 0 && --value > 0) {
                    left = histogram[value];
                }
            }
            topSums[j].set(cell, sum);
        }
    }

    /**
     * Each top-n sum of the cell whose values are {@code values[from, to)}, by selection on a copy of its nonzeros in
     * {@code row}: the top {@code percentTop[last]}, then within them the next smaller top, and so on; sums segments.
     */
    private void selectTopSums(
            float[] values, int from, int to, float[] row, int maxTop, TypedSums[] topSums, int cell) {
        int n = 0;
        for (int k = from; k < to; k++) {
            if (values[k] != 0) {
                row[n++] = values[k];
            }
        }
        int m = Math.max(n, maxTop);
        Arrays.fill(row, n, m, 0f);
        int end = m;
        for (int j = percentTop.length - 1; j >= 0; j--) {
            TopValues.selectLargest(row, 0, end, percentTop[j]);
            end = percentTop[j];
        }
        double sum = 0;
        int start = 0;
        for (int j = 0; j < percentTop.length; j++) {
            for (int k = start; k < percentTop[j]; k++) {
                sum += row[k];
            }
            topSums[j].set(cell, sum);
            start = percentTop[j];
        }
    }

    /**
     * Every cell's results once {@code sums} is the partial of the whole matrix: those the folds wrote here, with any
     * that folds in other JVMs brought back in {@code sums} copied in (and dropped from it, the per-gene sums staying,
     * so that they and the whole are not both held). Shaped by this pass's qc variables and ranks, so a matrix of no
     * rows gets empty columns.
     */
    Cells cells(Sums sums) {
        for (Cells b : sums.blocks) {
            int at = Math.toIntExact(b.rowStart);
            System.arraycopy(b.nGenes, 0, all.nGenes, at, b.nGenes.length);
            b.totals.copyInto(all.totals, at);
            for (int q = 0; q < all.qcTotals.length; q++) {
                b.qcTotals[q].copyInto(all.qcTotals[q], at);
            }
            for (int j = 0; j < all.topSums.length; j++) {
                b.topSums[j].copyInto(all.topSums[j], at);
            }
        }
        sums.blocks.clear();
        return all;
    }

    private static int maxRowNnz(int[] indptr) {
        int max = 0;
        for (int i = 1; i < indptr.length; i++) {
            max = Math.max(max, indptr[i] - indptr[i - 1]);
        }
        return max;
    }

    /**
     * The partial of a run of blocks: per gene, float64 sums and nonzero-cell counts; per cell, when folded in another
     * JVM, each block's {@link Cells} in block order.
     */
    public static final class Sums implements java.io.Serializable {
        final double[] sums;
        final long[] cells;
        final List<Cells> blocks = new ArrayList<>();
        /** The first value that is no count (negative, NaN or infinite) and the first fractional one. */
        final ValueCheck.Findings findings = new ValueCheck.Findings();

        Sums(int nCols) {
            sums = new double[nCols];
            cells = new long[nCols];
        }
    }

    /**
     * Per cell of rows {@code [rowStart, rowStart + nGenes.length)}: the counts and sums of the pass, the sums in
     * X's sum type, each the array of the obs column it becomes.
     */
    public static final class Cells implements java.io.Serializable {
        final long rowStart;
        final int[] nGenes;
        public final TypedSums totals;
        /** {@code qcTotals[q]}: each cell's total over the genes of qc variable {@code q}. */
        final TypedSums[] qcTotals;
        /** {@code topSums[j]}: the sum of each cell's {@code percentTop[j]} largest values. */
        final TypedSums[] topSums;

        Cells(long rowStart, int nRows, int nQc, int nTop, SumType type) {
            this.rowStart = rowStart;
            nGenes = new int[nRows];
            totals = new TypedSums(type, nRows);
            qcTotals = new TypedSums[nQc];
            for (int q = 0; q < nQc; q++) {
                qcTotals[q] = new TypedSums(type, nRows);
            }
            topSums = new TypedSums[nTop];
            for (int j = 0; j < nTop; j++) {
                topSums[j] = new TypedSums(type, nRows);
            }
        }
    }
}
