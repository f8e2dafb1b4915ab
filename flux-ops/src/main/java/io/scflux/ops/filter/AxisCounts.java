/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.filter;

import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The pass behind {@code filter_cells} and {@code filter_genes}: per cell or per gene, the sum of the values (in
 * float64, in stored order) and the number of positive values ({@code X > 0}, as scanpy counts them). A cell's
 * numbers come from its own block (a partial collects its blocks'); a gene's are added block after block, in the
 * merge order of {@link Reducer}.
 */
final class AxisCounts implements Reducer<AxisCounts.Counts> {

    private final boolean cells;
    private final int nCols;

    private AxisCounts(boolean cells, int nCols) {
        this.cells = cells;
        this.nCols = nCols;
    }

    /** Numbers per cell. */
    static AxisCounts perCell(int nCols) {
        return new AxisCounts(true, nCols);
    }

    /** Numbers per gene of {@code nCols} genes. */
    static AxisCounts perGene(int nCols) {
        return new AxisCounts(false, nCols);
    }

    @Override
    public Counts identity() {
        return cells ? new Counts(null, null) : new Counts(new double[nCols], new long[nCols]);
    }

    @Override
    public Counts fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public Counts foldInto(Counts acc, RowBlock block) {
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        if (!cells) {
            double[] sums = Objects.requireNonNull(acc.geneSums, "genes are counted in place");
            long[] expressed = Objects.requireNonNull(acc.geneExpressed, "genes are counted in place");
            for (int k = 0; k < block.nnz(); k++) {
                sums[indices[k]] += values[k];
                if (values[k] > 0) {
                    expressed[indices[k]]++;
                }
            }
            return acc;
        }
        int n = block.nRows();
        double[] sums = new double[n];
        long[] expressed = new long[n];
        for (int r = 0; r < n; r++) {
            double sum = 0;
            long positive = 0;
            for (int k = indptr[r]; k < indptr[r + 1]; k++) {
                sum += values[k];
                if (values[k] > 0) {
                    positive++;
                }
            }
            sums[r] = sum;
            expressed[r] = positive;
        }
        acc.chunks.add(new Chunk(block.rowStart(), sums, expressed));
        return acc;
    }

    @Override
    public Counts merge(Counts earlier, Counts later) {
        if (cells) {
            earlier.chunks.addAll(later.chunks);
        } else {
            double[] sums = Objects.requireNonNull(earlier.geneSums, "genes are counted in place");
            double[] laterSums = Objects.requireNonNull(later.geneSums, "genes are counted in place");
            long[] expressed = Objects.requireNonNull(earlier.geneExpressed, "genes are counted in place");
            long[] laterExpressed = Objects.requireNonNull(later.geneExpressed, "genes are counted in place");
            for (int g = 0; g < nCols; g++) {
                sums[g] += laterSums[g];
                expressed[g] += laterExpressed[g];
            }
        }
        return earlier;
    }

    /** A partial: the genes' numbers, or the cells' numbers block by block. */
    static final class Counts implements java.io.Serializable {
        final double @Nullable [] geneSums;
        final long @Nullable [] geneExpressed;
        final List<Chunk> chunks = new ArrayList<>();

        Counts(double @Nullable [] geneSums, long @Nullable [] geneExpressed) {
            this.geneSums = geneSums;
            this.geneExpressed = geneExpressed;
        }

        /** The sums of all {@code n} entries of the axis (cells: the blocks' put together). */
        double[] sums(int n) {
            return geneSums != null ? geneSums : (double[]) gather(new double[n], Chunk::sums);
        }

        /** The numbers of positive values of all {@code n} entries of the axis. */
        long[] expressed(int n) {
            return geneExpressed != null ? geneExpressed : (long[]) gather(new long[n], Chunk::expressed);
        }

        /** {@code all} (an array of every cell) with each block's {@code part} copied in at its rows. */
        private Object gather(Object all, Function<Chunk, Object> part) {
            for (Chunk c : chunks) {
                Object values = part.apply(c);
                System.arraycopy(values, 0, all, Math.toIntExact(c.rowStart), Array.getLength(values));
            }
            return all;
        }
    }

    /** The numbers of rows {@code [rowStart, rowStart + sums.length)}. */
    record Chunk(long rowStart, double[] sums, long[] expressed) implements java.io.Serializable {}
}
