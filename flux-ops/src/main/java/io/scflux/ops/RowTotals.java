package io.scflux.ops;

import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;

/**
 * normalize_total's pass: each cell's total, summed in float64 in stored order as scanpy's numba loop does, over all
 * genes or only those {@code keep} marks; a block's partial holds its cells' totals, which the merge copies into
 * place. With a
 * {@code maxFraction}, a block's partial also marks the genes that hold more than that fraction of some cell's total
 * (taken as the sum type holds it), merged by "or": scanpy's rule for excluding highly expressed genes.
 */
final class RowTotals implements Reducer<RowTotals.Sums> {

    private static final boolean[] NO_FLAGS = new boolean[0];

    private final int nRows;
    private final int nCols;
    private final boolean[] keep;
    private final double maxFraction;
    private final SumType type;

    /** Totals over all genes ({@code keep} null) or the kept ones; flags genes unless {@code maxFraction} is NaN. */
    RowTotals(int nRows, int nCols, boolean[] keep, double maxFraction, SumType type) {
        this.nRows = nRows;
        this.nCols = nCols;
        this.keep = keep;
        this.maxFraction = maxFraction;
        this.type = type;
    }

    /** The partial of no blocks, with room for every cell's total. */
    @Override
    public Sums identity() {
        return new Sums(flags(), 0, nRows);
    }

    private boolean[] flags() {
        return Double.isNaN(maxFraction) ? NO_FLAGS : new boolean[nCols];
    }

    @Override
    public Sums fold(RowBlock block) {
        Sums sums = new Sums(flags(), block.rowStart(), block.nRows());
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
            sums.totals[i] = total;
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
        System.arraycopy(later.totals, 0, earlier.totals, Math.toIntExact(later.rowStart - earlier.rowStart),
                later.totals.length);
        return earlier;
    }

    /** The partial of a run of blocks: the genes flagged, and the totals of rows {@code [rowStart, ...)}. */
    static final class Sums implements java.io.Serializable {
        final boolean[] flags;
        final long rowStart;
        final double[] totals;

        Sums(boolean[] flags, long rowStart, int nRows) {
            this.flags = flags;
            this.rowStart = rowStart;
            this.totals = new double[nRows];
        }
    }
}
