/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.RowBlock;
import java.util.List;

/**
 * PCA's Gram product {@code X^T X} of a run of blocks, the kernel of its covariance: a backend that accelerates it
 * implements it ({@link io.scflux.core.Backend#kernel}); {@link HostGram} is the host's form, the reference.
 */
public interface GramKernel {

    /**
     * Adds the Gram matrix {@code X^T X} of {@code blocks}' rows, in order, over their {@code p = nCols} columns (the
     * selected columns: a column subset is applied before) into {@code upper}, the upper triangle packed by rows
     * (entry (a, b), {@code b >= a}, at {@link #gramIndex}), and their column sums into {@code columnSums}; float64.
     * Several blocks at once let a kernel reach the triangle once for all their rows.
     *
     * @param blocks heap blocks of the same columns, in row order
     * @param upper the packed upper triangle added into
     * @param columnSums the column sums added into
     */
    void gram(List<RowBlock> blocks, double[] upper, double[] columnSums);

    /**
     * Position of Gram entry (a, b), {@code a <= b < p}, in the packed upper triangle.
     *
     * @param a the row of the entry
     * @param b its column, at least {@code a}
     * @param p the number of columns
     * @return its index in the packed triangle
     */
    static int gramIndex(int a, int b, int p) {
        return (int) ((long) a * p - (long) a * (a + 1) / 2 + b);
    }
}
