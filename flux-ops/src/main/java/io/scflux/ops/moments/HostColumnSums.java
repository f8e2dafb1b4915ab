/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.moments;

import io.scflux.core.Backend;
import io.scflux.core.RowBlock;

/** The column sums on the heap, entry by entry in block order: the reference a device's sums are checked against. */
public final class HostColumnSums implements ColumnSumsKernel {

    public static final HostColumnSums INSTANCE = new HostColumnSums();

    private HostColumnSums() {}

    /**
     * The column sums {@code backend} offers, or the host's.
     *
     * @param backend where the step runs
     * @return its kernel, or this host form
     */
    public static ColumnSumsKernel on(Backend backend) {
        return backend.kernel(ColumnSumsKernel.class).orElse(INSTANCE);
    }

    @Override
    public void columnSums(RowBlock block, boolean float32Squares, double[] sum, double[] squares) {
        int[] indices = block.indices();
        float[] values = block.values();
        for (int k = 0; k < block.nnz(); k++) {
            float v = values[k];
            int c = indices[k];
            sum[c] += v;
            squares[c] += float32Squares ? v * v : (double) v * v;
        }
    }
}
