package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.DenseArray;
import reactor.core.publisher.Mono;

/**
 * Streams a {@link BlockSource} into anndata's {@code csr_matrix} group: {@code data}, {@code indices} and
 * {@code indptr} grow block by block in chunked, extendable datasets, each block written and forgotten, so memory
 * holds a few blocks whatever the matrix size.
 *
 * <p>indices and indptr share one integer type, as scipy builds them: int32 while the entry count and both
 * dimensions fit, int64 otherwise. The final entry count is only known at the end, so both start as int32 and are
 * copied to int64 at the block that takes the count past the limit.
 */
final class CsrWriter {

    /** Blocks requested ahead of the one being written. */
    static final int PREFETCH = 2;

    /** Largest chunk of the three datasets, in elements (1 MiB of float32 values). */
    static final long MAX_CHUNK = 1 << 18;

    /** The largest entry count or dimension int32 indices hold. */
    static final long INT32_LIMIT = Integer.MAX_VALUE;

    private final String path;
    private final BlockPlan plan;
    private final long rows;
    private final int cols;
    private final long indexLimit;
    private final NativeHdf5.Group group;
    private NativeHdf5.Dataset data;
    private NativeHdf5.Dataset indices;
    private NativeHdf5.Dataset indptr;
    private long nnz;
    private long rowsWritten;

    private CsrWriter(NativeHdf5 file, ElementWriter.Matrix matrix, BlockPlan plan, long indexLimit) {
        BlockSource source = matrix.source();
        this.path = matrix.path();
        DType valueType = source.dtype();
        if (valueType == DType.STRING || valueType == DType.BOOL) {
            throw new IllegalArgumentException(path + ": cannot write a sparse matrix of " + valueType);
        }
        this.plan = plan;
        this.rows = source.nRows();
        this.cols = source.nCols();
        this.indexLimit = indexLimit;
        DType indexType = Math.max(rows, cols) > indexLimit ? DType.INT64 : DType.INT32;
        try (NativeHdf5.Group parent = file.openGroup(matrix.parent())) {
            group = parent.group(matrix.name());
        }
        try {
            ElementWriter.encode(group, "csr_matrix", "0.1.0");
            group.attr("shape", DenseArray.of(new long[] {rows, cols}));
            long chunk = Math.max(1, Math.min(MAX_CHUNK, plan.totalNnz()));
            data = group.extendable("data", valueType, chunk);
            indices = group.extendable("indices", indexType, chunk);
            indptr = group.extendable("indptr", indexType, Math.min(MAX_CHUNK, rows + 1));
            indptr.appendOffsets(new int[1], 0, 1, 0);
        } catch (RuntimeException e) {
            close(e);
            throw e;
        }
    }

    /**
     * Writes {@code matrix} from its blocks: the plan is computed off the HDF5 thread (it may read a whole indptr or
     * generate every row's count), blocks are decoded on the options' execution, and written in order on the HDF5
     * thread, at most {@link #PREFETCH} waiting. {@code indexLimit} is {@link #INT32_LIMIT} except in tests.
     */
    static Mono<Void> write(NativeHdf5 file, ElementWriter.Matrix matrix, WriteOptions options, long indexLimit) {
        return Mono.fromCallable(() -> matrix.source().plan(options.plan()))
                .subscribeOn(options.execution().scheduler())
                .publishOn(NativeHdf5.THREAD)
                .map(plan -> new CsrWriter(file, matrix, plan, indexLimit))
                .flatMap(w -> matrix.source().blocks(w.plan, options.execution())
                        .publishOn(NativeHdf5.THREAD, PREFETCH)
                        .doOnNext(w::append)
                        .then(Mono.fromRunnable(w::finish)));
    }

    private void append(RowBlock block) {
        if (block.rowStart() != rowsWritten || block.rowEnd() > rows || block.nCols() != cols) {
            throw new IllegalStateException(path + ": expected a block of " + cols + " columns starting at row "
                    + rowsWritten + " of " + rows + ", got " + block);
        }
        long end = nnz + block.nnz();
        if (end > indexLimit && indices.fileType() == DType.INT32) {
            indices = indices.widen(DType.INT64);
            indptr = indptr.widen(DType.INT64);
        }
        data.append(block.values(), DType.FLOAT32, 0, block.nnz());
        indices.append(block.indices(), DType.INT32, 0, block.nnz());
        indptr.appendOffsets(block.indptr(), 1, block.nRows(), nnz);
        nnz = end;
        rowsWritten = block.rowEnd();
    }

    private void finish() {
        if (rowsWritten != rows) {
            IllegalStateException e = new IllegalStateException(path + ": the blocks ended at row " + rowsWritten
                    + " of " + rows);
            close(e);
            throw e;
        }
        data.close();
        indices.close();
        indptr.close();
        group.close();
    }

    private void close(Throwable cause) {
        for (NativeHdf5.Node n : new NativeHdf5.Node[] {data, indices, indptr, group}) {
            NativeHdf5.closeAfter(n, cause);
        }
    }
}
