package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.DenseArray;

/**
 * Streams a sparse source into anndata's {@code csr_matrix} group: {@code data}, {@code indices} and {@code indptr}
 * grow block by block in chunked, extendable datasets.
 *
 * <p>indices and indptr share one integer type, as scipy builds them: int32 while the entry count and both
 * dimensions fit, int64 otherwise. The final entry count is only known at the end, so both start as int32 and are
 * copied to int64 at the block that takes the count past the limit.
 */
final class CsrWriter extends MatrixWriter {

    /** The largest entry count or dimension int32 indices hold. */
    static final long INT32_LIMIT = Integer.MAX_VALUE;

    private final long indexLimit;
    private final NativeHdf5.Group group;
    private NativeHdf5.Dataset data;
    private NativeHdf5.Dataset indices;
    private NativeHdf5.Dataset indptr;
    private long nnz;

    CsrWriter(NativeHdf5 file, ElementWriter.Matrix matrix, BlockPlan plan, long indexLimit) {
        super(matrix, plan);
        this.indexLimit = indexLimit;
        DType indexType = Math.max(rows, cols) > indexLimit ? DType.INT64 : DType.INT32;
        try (NativeHdf5.Group parent = file.openGroup(matrix.parent())) {
            group = parent.group(matrix.name());
        }
        try {
            ElementWriter.encode(group, "csr_matrix", "0.1.0");
            group.attr("shape", DenseArray.of(new long[] {rows, cols}));
            long chunk = Math.max(1, Math.min(MAX_CHUNK, plan.totalNnz()));
            data = group.extendable("data", matrix.source().dtype(), chunk);
            indices = group.extendable("indices", indexType, chunk);
            indptr = group.extendable("indptr", indexType, Math.min(MAX_CHUNK, rows + 1));
            indptr.appendOffsets(new int[1], 0, 1, 0);
        } catch (RuntimeException e) {
            closeAfter(e);
            throw e;
        }
    }

    @Override
    void append(RowBlock block) {
        long end = nnz + block.nnz();
        if (end > indexLimit && indices.fileType() == DType.INT32) {
            indices = indices.widen(DType.INT64);
            indptr = indptr.widen(DType.INT64);
        }
        data.append(block.values(), DType.FLOAT32, 0, block.nnz());
        indices.append(block.indices(), DType.INT32, 0, block.nnz());
        indptr.appendOffsets(block.indptr(), 1, block.nRows(), nnz);
        nnz = end;
    }

    @Override
    NativeHdf5.Node[] nodes() {
        return new NativeHdf5.Node[] {data, indices, indptr, group};
    }
}
