/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.Pass;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import java.util.Objects;

/**
 * Rows, stored entries and the sum of all values of a matrix, folded block by block and merged in block order, so the
 * sum has the same bits for any number of threads (it depends on the plan only).
 */
record Totals(long rows, long nnz, double sum) {

    private static final Reducer<Totals> REDUCER = new Reducer<>() {
        @Override
        public Totals identity() {
            return new Totals(0, 0, 0);
        }

        @Override
        public Totals fold(RowBlock block) {
            double s = 0;
            float[] v = block.values();
            for (int i = 0; i < block.nnz(); i++) {
                s += v[i];
            }
            return new Totals(block.nRows(), block.nnz(), s);
        }

        @Override
        public Totals merge(Totals earlier, Totals later) {
            return new Totals(earlier.rows + later.rows, earlier.nnz + later.nnz, earlier.sum + later.sum);
        }
    };

    /** The totals of {@code source} streamed in {@code plan}'s blocks by {@code execution}'s workers: a pass "sum". */
    static Totals of(BlockSource source, BlockPlan plan, Execution execution) {
        // a reducer's Mono is never empty: it merges the partials into its identity (reduceWith)
        return Objects.requireNonNull(REDUCER.reduce(source, plan, execution)
                .contextWrite(Pass.named("sum"))
                .block());
    }
}
