/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.moments;

import io.scflux.core.RowBlock;

/**
 * The per-column sums of a block, the kernel of HVG's statistics, scale's moments and the per-group gene sums: a
 * backend that accelerates them implements it ({@link io.scflux.core.Backend#kernel}); {@link HostColumnSums} is the
 * host's form, the reference.
 */
public interface ColumnSumsKernel {

    /**
     * Adds each column's sum and sum of squares over the block into {@code sum[c]} and {@code squares[c]} (float64),
     * squares taken in float32 when {@code float32Squares}: the partial of one block.
     *
     * @param block a heap block
     * @param float32Squares whether each square is rounded to float32 before it is added
     * @param sum the column sums added into
     * @param squares the column sums of squares added into
     */
    void columnSums(RowBlock block, boolean float32Squares, double[] sum, double[] squares);
}
