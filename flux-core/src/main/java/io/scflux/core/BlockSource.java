/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.nio.file.Path;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * Anything that yields a matrix as row blocks: an {@code .h5ad} file, an in-memory matrix, a subset, a lazy view.
 * It answers its shape, each row's entry count (which the {@link BlockPlan} is computed from) and
 * {@code Flux<RowBlock> blocks(BlockPlan)}, a cold, backpressured flux that reads a block only when it is requested.
 */
public interface BlockSource {

    /**
     * The matrix's rows (cells).
     *
     * @return the number of rows
     */
    long nRows();

    /**
     * The matrix's columns (genes).
     *
     * @return the number of columns
     */
    int nCols();

    /**
     * Writes the number of stored entries of rows {@code [rowFrom, rowFrom + count)} into {@code out[0..count)}.
     * A source that cannot know without decoding (dense data) reports an upper bound ({@code nCols}).
     *
     * @param rowFrom the first row
     * @param count how many rows, at most {@code out.length}
     * @param out where the counts go
     */
    void rowNnz(long rowFrom, int count, int[] out);

    /**
     * Opens a reader for one pass; the caller closes it. Prefer {@link #blocks}, which does both.
     *
     * @return the reader
     */
    RowReader open();

    /**
     * Opens a reader for {@code pass}, a pass over this source or over one that reads it, as {@link #open()}. A source
     * that reads others as it is opened (a view, a selection, a stage) opens them with the same pass: a source under
     * the one read (X under its views) learns so which pass opens it, and may {@link Pass#watch} it. By default,
     * {@link #open()}: a source that reads no other, or opens them later, on a read (opened by no pass), or that
     * keeps its pass to itself.
     *
     * @param pass the pass the reader is opened for
     * @return the reader, which the caller closes
     */
    default RowReader open(Pass pass) {
        return open();
    }

    /**
     * Type of the stored values as the source declares it; blocks always carry float32.
     *
     * @return the stored type (float32 unless the source says otherwise)
     */
    default DType dtype() {
        return DType.FLOAT32;
    }

    /**
     * True when the data are dense (a 2-D array on disk, or rows a stage fills): writers then store a dense array, as
     * anndata would. Blocks are sparse either way.
     *
     * @return whether the data are dense
     */
    default boolean isDense() {
        return false;
    }

    /**
     * What identifies this source's data for a block cache (a file's path, modification time and element), or null
     * when its blocks are not worth caching (data already in memory, or computed).
     *
     * @return the key, or null
     */
    default @Nullable Object cacheKey() {
        return null;
    }

    /**
     * The files this source's values are read from: a file-backed matrix's own file (for a CSC matrix, the file its
     * row-major copy was made from), the files of what a view, stage, subset or concatenation reads, none for data
     * held in memory. A writer refuses to write over any of them, since that would destroy what it is writing.
     *
     * @return the files, in the order first read; empty when nothing is read from a file
     */
    default Set<Path> files() {
        return Set.of();
    }

    /**
     * A short human name (file and HDF5 path, or kind) for messages.
     *
     * @return the name
     */
    default String describe() {
        return getClass().getSimpleName() + "[" + nRows() + " x " + nCols() + "]";
    }

    /**
     * The plan for a target. Sources whose row counts are costly to read may remember it.
     *
     * @param target the block sizes aimed at
     * @return the plan of this source's rows
     */
    default BlockPlan plan(PlanTarget target) {
        return BlockPlan.of(nRows(), this::rowNnz, target);
    }

    /**
     * The plan for {@link PlanTarget#DEFAULT}.
     *
     * @return the plan of this source's rows
     */
    default BlockPlan plan() {
        return plan(PlanTarget.DEFAULT);
    }

    /**
     * How a pass over {@code plan} opens this source, on subscription: {@link #open(Pass)}, once the plan is checked
     * to cover its rows (a plan made for another source fails the pass with an {@link IllegalArgumentException}).
     * What the fluxes below and {@link Reducer#reduce(BlockSource, BlockPlan, Execution)} open their readers with.
     *
     * @param plan the plan of the pass
     * @return what opens the pass's reader
     */
    default Function<Pass, RowReader> opener(BlockPlan plan) {
        return pass -> {
            if (plan.totalRows() != nRows()) {
                throw new IllegalArgumentException(
                        "plan covers " + plan.totalRows() + " rows but " + describe() + " has " + nRows());
            }
            return open(pass);
        };
    }

    /**
     * The blocks of {@code plan}, read one at a time on request, on {@link Execution#sequential()}.
     *
     * @param plan a plan of this source
     * @return a cold flux of the blocks, in order
     */
    default Flux<RowBlock> blocks(BlockPlan plan) {
        return blocks(plan, Execution.sequential());
    }

    /**
     * The blocks of {@code plan} in block order, decoded by up to {@code execution.threads()} workers with at most
     * that many blocks in flight. The reader is opened on subscription and closed on completion, error or cancel.
     *
     * @param plan a plan of this source
     * @param execution the workers
     * @return a cold flux of the blocks, in order
     */
    default Flux<RowBlock> blocks(BlockPlan plan, Execution execution) {
        return BlockFlux.of(opener(plan), plan, execution);
    }

    /**
     * The blocks of {@code plan} as {@link #blocks(BlockPlan, Execution)} reads them, each mapped by {@code then} on
     * the worker that read it (what is made from a block is made in parallel too), emitted in block order.
     *
     * @param <T> what a block is mapped to
     * @param plan a plan of this source
     * @param execution the workers
     * @param then the mapping, run on the worker that read the block
     * @return a cold flux of the mapped blocks, in order
     */
    default <T> Flux<T> blocks(BlockPlan plan, Execution execution, Function<RowBlock, T> then) {
        return BlockFlux.mapped(opener(plan), plan, execution, then);
    }

    /**
     * The blocks of {@code plan} as {@link #blocks(BlockPlan, Execution)} reads them, each read into a buffer that
     * the subscriber gives back ({@link BlockBuffer#release}) once it has read it, for a later block: a pass that
     * keeps no block then allocates no block arrays. The buffers are the pass's own, made for its largest block, and
     * their bytes are held in a child of {@code account} for the pass (refused past its cap, as onError).
     *
     * @param plan a plan of this source
     * @param execution the workers
     * @param account the account the pass's buffers are held under
     * @return a cold flux of buffers, in order, each to be released once read
     */
    default Flux<BlockBuffer> buffers(BlockPlan plan, Execution execution, MemoryAccount account) {
        return BlockFlux.buffered(opener(plan), plan, execution, account);
    }

    /**
     * The blocks of {@link #plan()}, read one at a time on request.
     *
     * @return a cold flux of the blocks, in order
     */
    default Flux<RowBlock> blocks() {
        return blocks(plan());
    }
}
