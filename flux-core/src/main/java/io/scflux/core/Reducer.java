/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Folds blocks into a result (sums, means and variances, Gram matrices). The blocks are cut into segments of
 * {@link #segmentBlocks} consecutive blocks ({@link #SEGMENT_BLOCKS} for most reducers); each segment is folded on one worker, in block order, and the segments'
 * partials are merged in order whatever worker finished first. Floating-point addition is not associative, so this
 * fixed order, which depends on the plan only, is what gives the same bits with 1 or 16 threads.
 *
 * <p>The order in full: a segment's partial is {@link #identity()} with its blocks folded in with {@link #foldInto},
 * first to last (the first segment starts at block 0), then passed to {@link #segmentDone}; a run's partial is
 * {@link #identity()} merged with the partials of its {@link #RUN_SEGMENTS} segments in order; the result is
 * {@link #identity()} merged with the runs' partials in order. Small blocks thus cost one partial per segment, not per block, and an {@link Engine} that folds elsewhere
 * sends one partial per run.
 *
 * <p>A reducer is serializable, and so must its partials be, so that an {@link Engine} can fold blocks in other JVMs
 * and send the partials back to be merged.
 *
 * @param <A> the accumulator: a partial for one block, or for a run of consecutive blocks
 */
public interface Reducer<A> extends java.io.Serializable {

    /** Blocks per segment of the merge order: a constant, never the thread count or an engine's task size. */
    int SEGMENT_BLOCKS = 16;

    /**
     * This reducer's blocks per segment, {@link #SEGMENT_BLOCKS} unless its partial is large: each segment costs a
     * partial and a merge, which for a 16 MB Gram triangle outweighs folding 16 small blocks. A constant of the
     * reducer, so the order still depends on the plan only.
     *
     * @return blocks per segment, at least 1
     */
    default int segmentBlocks() {
        return SEGMENT_BLOCKS;
    }

    /** Segments per run of the merge order: a constant too; a run is an engine's task. */
    int RUN_SEGMENTS = 16;

    /**
     * The partial of no blocks; {@code merge(identity(), p)} must equal {@code p}.
     *
     * @return a fresh empty partial
     */
    A identity();

    /**
     * The partial of one block. May run on any worker, concurrently with other blocks.
     *
     * @param block a heap block
     * @return its partial
     */
    A fold(RowBlock block);

    /**
     * {@code acc}, the partial of the blocks before {@code block} in its segment, with {@code block} folded in; may
     * reuse and return {@code acc}. By default {@code merge(acc, fold(block))}; a reducer whose fold adds into fresh
     * sums overrides it to add into {@code acc}, so that it allocates and merges no partial per block.
     *
     * @param acc the partial so far, which may be reused
     * @param block the next block of the segment
     * @return the partial with the block folded in
     */
    default A foldInto(A acc, RowBlock block) {
        return merge(acc, fold(block));
    }

    /**
     * A segment's partial once its last block is folded in, on the segment's worker, before any merge: a reducer
     * that gathers blocks before it adds them (a tile of rows) adds what it gathered here, so that the work stays on
     * the workers and the merges, which run one at a time, only merge. By default the partial as it is.
     *
     * @param segment the segment's partial
     * @return the partial to merge
     */
    default A segmentDone(A segment) {
        return segment;
    }

    /**
     * Combines {@code earlier} (blocks before) with {@code later}; may reuse and return {@code earlier}, and may keep
     * {@code later} to fold the next blocks into, so the caller must not use {@code later} afterwards.
     *
     * @param earlier the partial of the blocks before
     * @param later the partial of the blocks after
     * @return the partial of both
     */
    A merge(A earlier, A later);

    /**
     * The runs of a plan of {@code blocks} blocks, {@code [from, to)} each: {@link #RUN_SEGMENTS} segments of
     * {@link #SEGMENT_BLOCKS} consecutive blocks from block 0, the last one shorter.
     *
     * @param blocks the plan's blocks
     * @return each run's {@code [from, to)}, in order
     */
    static List<int[]> runs(int blocks) {
        return runs(blocks, SEGMENT_BLOCKS);
    }

    /**
     * As {@link #runs(int)}, for segments of {@code segmentBlocks} blocks (a reducer's {@link #segmentBlocks}).
     *
     * @param blocks the plan's blocks
     * @param segmentBlocks blocks per segment
     * @return each run's {@code [from, to)}, in order
     */
    static List<int[]> runs(int blocks, int segmentBlocks) {
        int step = RUN_SEGMENTS * segmentBlocks;
        List<int[]> ranges = new ArrayList<>();
        for (int from = 0; from < blocks; from += step) {
            ranges.add(new int[] {from, Math.min(blocks, from + step)});
        }
        return ranges;
    }

    /**
     * The partial of blocks {@code [from, to)} of {@code plan}, one run, read with {@code reader}: each segment folded
     * in order from {@link #identity()}, the segments' partials merged in order from {@link #identity()}, as
     * {@link #reduce} does; for an engine that folds a run in one task.
     */
    default A foldRun(RowReader reader, BlockPlan plan, int from, int to) {
        A run = identity();
        int size = segmentBlocks();
        for (int first = from; first < to; first += size) {
            run = merge(run, foldSegment(reader, plan, first, Math.min(to, first + size)));
        }
        return run;
    }

    /** The partial of the segment of blocks {@code [from, to)}, each read with {@code reader} as the fold needs it. */
    private A foldSegment(RowReader reader, BlockPlan plan, int from, int to) {
        A segment = identity();
        for (int b = from; b < to; b++) {
            segment = foldInto(segment, reader.read(b, plan.rowStart(b), plan.rowEnd(b)));
        }
        return segmentDone(segment);
    }

    /**
     * Folds every block of {@code plan} over {@code source} in the order above, up to {@code execution.threads()}
     * segments at once, each read block by block by the worker that folds it: about one block per worker is held
     * however slow the folds are, where the flux form below queues a segment's blocks while its worker is busy.
     */
    default Mono<A> reduce(BlockSource source, BlockPlan plan, Execution execution) {
        int segments = (plan.size() + segmentBlocks() - 1) / segmentBlocks();
        return inOrder(BlockFlux.withReader(
                source.opener(plan),
                plan,
                execution,
                reader -> Flux.range(0, segments)
                        .flatMapSequential(
                                s -> Mono.fromCallable(() -> foldSegmentUnlessClosed(reader, plan, s))
                                        .subscribeOn(execution.scheduler()),
                                execution.threads(),
                                1)));
    }

    /**
     * The partial of segment {@code s}, or null (no partial) when the reader closed under the fold: the reduction was
     * cancelled or another segment failed, and that is what is reported.
     */
    private @Nullable A foldSegmentUnlessClosed(GuardedReader reader, BlockPlan plan, int s) {
        try {
            int size = segmentBlocks();
            return foldSegment(reader, plan, s * size, Math.min(plan.size(), (s + 1) * size));
        } catch (CancellationException e) {
            if (!reader.isClosed()) {
                throw e;
            }
            return null;
        }
    }

    /**
     * Folds {@code blocks} (all the blocks of a plan, in block order) in the order above, up to
     * {@code execution.threads()} segments at once. A segment's blocks are gathered as they arrive and folded on a
     * worker once the segment is whole, so at most one more segment of blocks than that is held beyond the source's
     * own.
     */
    default Mono<A> reduce(Flux<RowBlock> blocks, Execution execution) {
        // segments as lists, not windows: Reactor's exact window asserts (an AssertionError under -ea, else a
        // NullPointerException on the worker) when an onNext that raced a cancel reaches it at a window's boundary,
        // which Reactive Streams allows (rule 2.8); a buffer drops it
        Flux<List<RowBlock>> segments = blocks.buffer(segmentBlocks());
        Flux<A> partials = execution.threads() == 1
                ? segments.concatMap(segment -> Mono.fromCallable(() -> foldAll(segment)), 1)
                : segments.flatMapSequential(
                        segment -> Mono.fromCallable(() -> foldAll(segment)).subscribeOn(execution.scheduler()),
                        execution.threads(),
                        1);
        return inOrder(partials);
    }

    /** The partial of one segment's blocks, folded in order. */
    private A foldAll(List<RowBlock> segment) {
        A partial = identity();
        for (RowBlock b : segment) {
            partial = foldInto(partial, b);
        }
        return segmentDone(partial);
    }

    /** The segments' partials, in order, merged into runs and the runs into the result. */
    private Mono<A> inOrder(Flux<A> partials) {
        return partials.buffer(RUN_SEGMENTS)
                .map(run -> {
                    A merged = identity();
                    for (A p : run) {
                        merged = merge(merged, p);
                    }
                    return merged;
                })
                .reduceWith(this::identity, this::merge);
    }
}
