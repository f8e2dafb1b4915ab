/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalize;

import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import io.scflux.ops.values.SumType;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * normalize_total's pass: each cell's total, summed in float64 in stored order as scanpy's numba loop does, over all
 * genes or only those {@code keep} marks; a block's partial holds its cells' totals (merging collects them,
 * {@link Sums#totals} puts them together). With a
 * {@code maxFraction}, a block's partial also marks the genes that hold more than that fraction of some cell's total
 * (taken as the sum type holds it), merged by "or": scanpy's rule for excluding highly expressed genes.
 */
final class RowTotals implements Reducer<RowTotals.Sums> {

    private static final boolean[] NO_FLAGS = new boolean[0];

    private final int nCols;
    private final boolean @Nullable [] keep;
    private final double maxFraction;
    private final SumType type;

    /**
     * Totals of rows of {@code nCols} columns over all genes ({@code keep} null) or the kept ones; flags genes unless
     * {@code maxFraction} is NaN.
     */
    RowTotals(int nCols, boolean @Nullable [] keep, double maxFraction, SumType type) {
        this.nCols = nCols;
        this.keep = keep;
        this.maxFraction = maxFraction;
        this.type = type;
    }

    @Override
    public Sums identity() {
        return new Sums(flags());
    }

    private boolean[] flags() {
        return Double.isNaN(maxFraction) ? NO_FLAGS : new boolean[nCols];
    }

    @Override
    public Sums fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public Sums foldInto(Sums sums, RowBlock block) {
        double[] totals = new double[block.nRows()];
        sums.blocks.add(new Chunk(block.rowStart(), totals));
        boolean[] flags = sums.flags;
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        for (int i = 0; i < block.nRows(); i++) {
            double total = 0;
            for (int k = indptr[i]; k < indptr[i + 1]; k++) {
                if (keep == null || keep[indices[k]]) {
                    total += values[k];
                }
            }
            totals[i] = total;
            if (flags.length > 0) {
                double limit = maxFraction * type.round(total);
                for (int k = indptr[i]; k < indptr[i + 1]; k++) {
                    if (values[k] > limit) {
                        flags[indices[k]] = true;
                    }
                }
            }
        }
        return sums;
    }

    @Override
    public Sums merge(Sums earlier, Sums later) {
        for (int g = 0; g < earlier.flags.length; g++) {
            earlier.flags[g] |= later.flags[g];
        }
        earlier.blocks.addAll(later.blocks);
        return earlier;
    }

    /** The partial of a run of blocks: the genes flagged, and each block's totals in block order. */
    static final class Sums implements java.io.Serializable {
        final boolean[] flags;
        final List<Chunk> blocks = new ArrayList<>();

        Sums(boolean[] flags) {
            this.flags = flags;
        }

        /** Every cell's total, the blocks' put together: they must cover rows {@code [0, nRows)}. */
        double[] totals(int nRows) {
            double[] all = new double[nRows];
            for (Chunk c : blocks) {
                System.arraycopy(c.totals, 0, all, Math.toIntExact(c.rowStart), c.totals.length);
            }
            return all;
        }
    }

    /** The totals of rows {@code [rowStart, rowStart + totals.length)}. */
    record Chunk(long rowStart, double[] totals) implements java.io.Serializable {}
}
