/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.DenseArray;

/**
 * Streams a sparse source into anndata's {@code csr_matrix} group: {@code data}, {@code indices} and {@code indptr}
 * grow block by block in chunked, extendable datasets.
 *
 * <p>indices and indptr share one integer type, chosen once when they are created, as scipy chooses it: int32 while
 * the entry count and both dimensions fit, int64 otherwise. The entry count is the plan's, known before the first
 * block: exact, or an upper bound where entries may be dropped (a column selection, a stage), which then errs on
 * int64, read alike by anndata. Never copying the indices to a wider type keeps the file free of the space such a
 * copy leaves behind (the temporary file of a 2.25e9-entry output grew to 32 GB for a 27 GB result).
 */
final class CsrWriter extends MatrixWriter {

    private final long indexLimit;
    private final boolean int32;
    private final NativeHdf5.Group group;
    private final NativeHdf5.Dataset data;
    private final NativeHdf5.Dataset indices;
    private final NativeHdf5.Dataset indptr;
    private long nnz;

    CsrWriter(NativeHdf5 file, ElementWriter.Matrix matrix, BlockPlan plan, long indexLimit) {
        super(matrix, plan);
        this.indexLimit = indexLimit;
        int32 = Math.max(plan.totalNnz(), Math.max(rows, cols)) <= indexLimit;
        DType indexType = int32 ? DType.INT32 : DType.INT64;
        try (NativeHdf5.Group parent = file.openGroup(matrix.parent())) {
            group = parent.group(matrix.name());
        }
        try {
            ElementWriter.encode(group, "csr_matrix", "0.1.0");
            group.attr("shape", DenseArray.of(new long[] {rows, cols}));
            long chunk = Math.max(1, Math.min(WriteLayout.MAX_CHUNK, plan.totalNnz()));
            data = group.extendable("data", valueType, chunk);
            indices = group.extendable("indices", indexType, chunk);
            indptr = group.extendable("indptr", indexType, Math.min(WriteLayout.MAX_CHUNK, rows + 1));
            indptr.appendOffsets(new int[1], 0, 1, 0);
        } catch (RuntimeException e) {
            closeAfter(e);
            throw e;
        }
    }

    @Override
    void append(RowBlock block) {
        long end = nnz + block.nnz();
        if (int32 && end > indexLimit) {
            throw new IllegalStateException(path + ": block " + block.blockIndex() + " takes the entries to " + end
                    + ", past the " + plan.totalNnz() + " its source planned and the int32 indices chosen for them");
        }
        appendValues(data, block);
        indices.append(block.indices(), DType.INT32, 0, block.nnz());
        indptr.appendOffsets(block.indptr(), 1, block.nRows(), nnz);
        nnz = end;
    }

    @Override
    NativeHdf5.Node[] nodes() {
        return new NativeHdf5.Node[] {data, indices, indptr, group};
    }
}
