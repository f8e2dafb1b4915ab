/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.RowBlock;
import java.util.Arrays;

/**
 * Streams a dense source into a 2-D {@code array} dataset of the source's dtype, as anndata stores a numpy array:
 * chunked along rows (whole rows per chunk) and extended block by block, each block's entries scattered into one
 * reused row-major buffer (missing entries are zeros).
 */
final class DenseWriter extends MatrixWriter {

    private final NativeHdf5.Dataset array;
    private float[] buffer = new float[0];

    DenseWriter(NativeHdf5 file, ElementWriter.Matrix matrix, BlockPlan plan) {
        super(matrix, plan);
        long chunkRows = Math.max(1, Math.min(rows, WriteLayout.MAX_CHUNK / Math.max(1, cols)));
        try (NativeHdf5.Group parent = file.openGroup(matrix.parent())) {
            array = parent.extendable(matrix.name(), valueType, new long[] {cols}, chunkRows);
        }
        try {
            ElementWriter.encode(array, "array", "0.2.0");
        } catch (RuntimeException e) {
            closeAfter(e);
            throw e;
        }
    }

    @Override
    void append(RowBlock block) {
        int n = Math.multiplyExact(block.nRows(), cols);
        if (buffer.length < n) {
            buffer = new float[n];
        } else {
            Arrays.fill(buffer, 0, n, 0f);
        }
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        for (int r = 0; r < block.nRows(); r++) {
            int base = r * cols;
            for (int k = indptr[r]; k < indptr[r + 1]; k++) {
                buffer[base + indices[k]] = values[k];
            }
        }
        ExactValues stored = block.exact();
        if (stored == null) {
            array.append(buffer, DType.FLOAT32, 0, block.nRows());
            return;
        }
        // values moved unchanged from the input: their stored values, at the same cells
        int[] entry = new int[n];
        Arrays.fill(entry, -1);
        for (int r = 0; r < block.nRows(); r++) {
            for (int k = indptr[r]; k < indptr[r + 1]; k++) {
                entry[r * cols + indices[k]] = k;
            }
        }
        array.append(stored.gather(entry, n, 0).array(), ExactValues.arrayType(stored.dtype()), 0, block.nRows());
    }

    @Override
    NativeHdf5.Node[] nodes() {
        return new NativeHdf5.Node[] {array};
    }
}
