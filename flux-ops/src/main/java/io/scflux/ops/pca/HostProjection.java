/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.Backend;
import io.scflux.core.RowBlock;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/** The projection on the components on the heap: the reference a device's projection is checked against. */
public final class HostProjection implements ProjectionKernel {

    public static final HostProjection INSTANCE = new HostProjection();

    private HostProjection() {}

    /**
     * The projection {@code backend} offers, or the host's.
     *
     * @param backend where the step runs
     * @return its kernel, or this host form
     */
    public static ProjectionKernel on(Backend backend) {
        return backend.kernel(ProjectionKernel.class).orElse(INSTANCE);
    }

    @Override
    public RowBlock project(RowBlock block, double[] loadings, int k, double[] meanV) {
        return project(block, null, loadings, k, meanV);
    }

    /**
     * {@link #project} of the block's columns that {@code rowOf} maps to a row of {@code loadings} (-1: left out; null:
     * every column, itself): the same sums, in the same order, as projecting the block with those columns picked.
     *
     * @param block a heap block
     * @param rowOf the row of {@code loadings} of each of the block's columns, or null for the column itself
     * @param loadings the components' loadings, row-major
     * @param k the number of components
     * @param meanV the projected mean subtracted from each row
     * @return a dense block of {@code k} columns
     */
    public static RowBlock project(RowBlock block, int @Nullable [] rowOf, double[] loadings, int k, double[] meanV) {
        double[] acc = new double[k];
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        int rows = block.nRows();
        int[] outPtr = new int[rows + 1];
        int[] outIdx = new int[rows * k];
        float[] out = new float[rows * k];
        for (int r = 0; r < rows; r++) {
            Arrays.fill(acc, 0);
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                int row = rowOf == null ? indices[i] : rowOf[indices[i]];
                if (row < 0) {
                    continue;
                }
                double x = values[i];
                int base = row * k;
                for (int j = 0; j < k; j++) {
                    acc[j] += x * loadings[base + j];
                }
            }
            int at = r * k;
            for (int j = 0; j < k; j++) {
                outIdx[at + j] = j;
                out[at + j] = (float) (acc[j] - meanV[j]);
            }
            outPtr[r + 1] = at + k;
        }
        return RowBlock.of(block.blockIndex(), block.rowStart(), k, outPtr, outIdx, out);
    }
}
