/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Cleanup;
import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.HostBackend;
import io.scflux.core.PlacedSource;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.core.StagedSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import reactor.core.publisher.Mono;

/**
 * Streams a {@link BlockSource} into one matrix element, block by block in row order, each block written and
 * forgotten: a {@code csr_matrix} group ({@link CsrWriter}), or a 2-D {@code array} ({@link DenseWriter}) when the
 * source says its data are dense, as anndata would store them.
 */
abstract class MatrixWriter {

    /**
     * Blocks requested ahead of the one being written: enough that the HDF5 thread seldom waits for the workers, nor
     * they for it (the 200,000-cell preprocess switched threads 11 % less often than with 2 and took 3-7 % less
     * time in three alternating trials), few enough to hold (at the default block size, about 1 MB each).
     */
    static final int PREFETCH = 8;

    final String path;
    final BlockPlan plan;
    final long rows;
    final int cols;
    /** The source's dtype: what the matrix is stored as, unless a writer stores a type of its own. */
    final DType valueType;

    private long rowsWritten;

    MatrixWriter(ElementWriter.Matrix matrix, BlockPlan plan) {
        BlockSource source = matrix.source();
        this.path = matrix.path();
        this.plan = plan;
        this.rows = source.nRows();
        this.cols = source.nCols();
        this.valueType = source.dtype();
        if (valueType == DType.STRING || valueType == DType.BOOL) {
            // bool X (anndata writes it for a presence matrix) reads as 0 and 1, but is not written back as bool
            throw new IllegalArgumentException(source.describe() + ": " + path + " holds " + valueType.numpyName()
                    + " values, which scflux reads (as 0 and 1) but writes only as numbers: give X a numeric dtype "
                    + "first (in anndata: adata.X = adata.X.astype('float32')), or write with --annotations-only");
        }
    }

    /**
     * As above, with the writers {@code make} creates for the plan (on the HDF5 thread): one for {@code matrix}, whose
     * blocks {@code check} returns once it checked that the writer may store them, and one per companion, all written
     * in one pass: each block read is handed to the matrix's writer and, through each companion's stage (applied on
     * the worker that read it), to that companion's writer. The checks ({@code check}; for a companion, that its type holds each value,
     * {@link ValueRange#requireHeld}) run on the worker too, off the HDF5 thread, which every block passes one at a
     * time.
     */
    static Mono<Void> write(
            ElementWriter.Matrix matrix,
            UnaryOperator<RowBlock> check,
            WriteOptions options,
            BiFunction<ElementWriter.Matrix, BlockPlan, MatrixWriter> make) {
        BlockSource source = PlacedSource.on(HostBackend.INSTANCE, matrix.source());
        List<ElementWriter.Matrix> all = new ArrayList<>(List.of(matrix));
        all.addAll(matrix.companions());
        List<Stage> stages = matrix.companions().stream()
                .map(c -> ((StagedSource) c.source()).stage())
                .toList();
        Function<RowBlock, RowBlock[]> made = block -> {
            RowBlock[] out = new RowBlock[all.size()];
            out[0] = check.apply(block);
            for (int c = 0; c < stages.size(); c++) {
                ElementWriter.Matrix companion = all.get(c + 1);
                out[c + 1] = ValueRange.requireHeld(
                        companion.source().dtype(), stages.get(c).apply(block), companion.path());
            }
            return out;
        };
        return Mono.fromCallable(() -> source.plan(options.plan()))
                .subscribeOn(options.execution().scheduler())
                .publishOn(NativeHdf5.THREAD)
                .map(plan -> {
                    List<MatrixWriter> writers = new ArrayList<>();
                    try {
                        for (ElementWriter.Matrix m : all) {
                            writers.add(make.apply(m, plan));
                        }
                    } catch (RuntimeException e) {
                        writers.forEach(w -> w.closeAfter(e));
                        throw e;
                    }
                    return writers;
                })
                .flatMap(writers -> {
                    BlockPlan plan = writers.get(0).plan;
                    // without companions the source's own flux, which a source may shape (demand, caching)
                    return (stages.isEmpty()
                                    ? source.blocks(plan, options.execution()).map(made)
                                    : source.blocks(plan, options.execution(), made))
                            .publishOn(NativeHdf5.THREAD, PREFETCH)
                            .doOnNext(blocks -> {
                                for (int w = 0; w < blocks.length; w++) {
                                    writers.get(w).accept(blocks[w]);
                                }
                            })
                            .then(Mono.fromRunnable(() -> Cleanup.all(writers, MatrixWriter::finish)));
                });
    }

    /**
     * Whether the source is written as a dense array. A dense matrix without columns is written as CSR: HDF5 cannot
     * chunk a zero-length axis (anndata then reads an empty sparse matrix instead of an empty array).
     */
    static boolean isDense(BlockSource source) {
        return source.isDense() && source.nCols() > 0;
    }

    private void accept(RowBlock block) {
        if (block.rowStart() != rowsWritten || block.rowEnd() > rows || block.nCols() != cols) {
            throw new IllegalStateException(path + ": expected a block of " + cols + " columns starting at row "
                    + rowsWritten + " of " + rows + ", got " + block);
        }
        append(block);
        rowsWritten = block.rowEnd();
    }

    /** Writes the rows of {@code block}, the next ones in order. */
    abstract void append(RowBlock block);

    /**
     * Appends the values of {@code block} to {@code data}: as stored where the block carries them
     * ({@link RowBlock#exact()}: a value moved from the input, unchanged), else its floats. That the dataset's type
     * holds them was checked as the block was read ({@link ValueRange#requireHeld}).
     */
    final void appendValues(NativeHdf5.Dataset data, RowBlock block) {
        ExactValues stored = block.exact();
        if (stored != null) {
            data.append(stored.array(), ExactValues.arrayType(stored.dtype()), 0, block.nnz());
        } else {
            data.append(block.values(), DType.FLOAT32, 0, block.nnz());
        }
    }

    /** What {@link #finish} and {@link #closeAfter} close, in that order (entries may be null). */
    abstract NativeHdf5.Node[] nodes();

    private void finish() {
        if (rowsWritten != rows) {
            IllegalStateException e =
                    new IllegalStateException(path + ": the blocks ended at row " + rowsWritten + " of " + rows);
            closeAfter(e);
            throw e;
        }
        Cleanup.all(Arrays.asList(nodes()), NativeHdf5.Node::close);
    }

    /** Closes whatever is open after {@code cause} went wrong. */
    void closeAfter(Throwable cause) {
        for (NativeHdf5.Node n : nodes()) {
            NativeHdf5.closeAfter(n, cause);
        }
    }
}
