package io.scflux.ops;

import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;

/**
 * normalize_total's pass: each cell's total, summed in float64 in stored order as scanpy's numba loop does, over all
 * genes or only those {@code keep} marks, written into {@link #totals} at the cell's position. With a
 * {@code maxFraction}, a block's partial also marks the genes that hold more than that fraction of some cell's total
 * (taken as the sum type holds it), merged by "or": scanpy's rule for excluding highly expressed genes.
 */
final class RowTotals implements Reducer<boolean[]> {

    private static final boolean[] NO_FLAGS = new boolean[0];

    final double[] totals;
    private final int nCols;
    private final boolean[] keep;
    private final double maxFraction;
    private final SumType type;

    /** Totals over all genes ({@code keep} null) or the kept ones; flags genes unless {@code maxFraction} is NaN. */
    RowTotals(int nRows, int nCols, boolean[] keep, double maxFraction, SumType type) {
        this.totals = new double[nRows];
        this.nCols = nCols;
        this.keep = keep;
        this.maxFraction = maxFraction;
        this.type = type;
    }

    @Override
    public boolean[] identity() {
        return Double.isNaN(maxFraction) ? NO_FLAGS : new boolean[nCols];
    }

    @Override
    public boolean[] fold(RowBlock block) {
        boolean[] flags = identity();
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
            totals[Math.toIntExact(block.rowStart() + i)] = total;
            if (flags.length > 0) {
                double limit = maxFraction * type.round(total);
                for (int k = indptr[i]; k < indptr[i + 1]; k++) {
                    if (values[k] > limit) {
                        flags[indices[k]] = true;
                    }
                }
            }
        }
        return flags;
    }

    @Override
    public boolean[] merge(boolean[] earlier, boolean[] later) {
        for (int g = 0; g < earlier.length; g++) {
            earlier[g] |= later[g];
        }
        return earlier;
    }
}
