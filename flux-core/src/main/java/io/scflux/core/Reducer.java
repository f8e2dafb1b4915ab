package io.scflux.core;

import java.util.ArrayList;
import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Folds blocks into a result (sums, means and variances, Gram matrices). Each block is folded on its own,
 * sequentially, and the partials are merged in block order whatever worker finished first; floating-point addition
 * is not associative, so this rule is what gives the same bits with 1 or 16 threads.
 *
 * <p>The order is a fixed two-level one: the partials of each segment of {@link #SEGMENT_BLOCKS} consecutive blocks
 * (the first segment starting at block 0) are merged in order, starting from {@link #identity()}; then the segments'
 * partials, in order, starting from {@link #identity()}. It depends on the plan only, and lets an {@link Engine} that
 * folds segments elsewhere send one partial per segment instead of one per block.
 *
 * <p>A reducer is serializable, and so must its partials be, so that an {@link Engine} can fold blocks in other JVMs
 * and send the partials back to be merged.
 *
 * @param <A> the accumulator: a partial for one block, or for a run of consecutive blocks
 */
public interface Reducer<A> extends java.io.Serializable {

    /** Blocks per segment of the merge order: a constant, never the thread count or an engine's task size. */
    int SEGMENT_BLOCKS = 16;

    /** The partial of no blocks; {@code merge(identity(), p)} must equal {@code p}. */
    A identity();

    /** The partial of one block. May run on any worker, concurrently with other blocks. */
    A fold(RowBlock block);

    /**
     * Combines {@code earlier} (blocks before) with {@code later}; may reuse and return {@code earlier}, and may keep
     * {@code later} to fold the next blocks into, so the caller must not use {@code later} afterwards.
     */
    A merge(A earlier, A later);

    /**
     * The merge segments of a plan of {@code blocks} blocks, {@code [from, to)} each: {@link #SEGMENT_BLOCKS}
     * consecutive blocks from block 0, the last one shorter.
     */
    static List<int[]> segments(int blocks) {
        List<int[]> segments = new ArrayList<>();
        for (int from = 0; from < blocks; from += SEGMENT_BLOCKS) {
            segments.add(new int[] {from, Math.min(blocks, from + SEGMENT_BLOCKS)});
        }
        return segments;
    }

    /**
     * The partial of blocks {@code [from, to)} of {@code plan}, one segment, read with {@code reader}: each block
     * folded on its own and merged in order from {@link #identity()}, as {@link #reduce} merges a segment; for an
     * engine that folds a segment in one task.
     */
    default A foldSegment(RowReader reader, BlockPlan plan, int from, int to) {
        A acc = identity();
        for (int b = from; b < to; b++) {
            acc = merge(acc, fold(reader.read(b, plan.rowStart(b), plan.rowEnd(b))));
        }
        return acc;
    }

    /**
     * Folds {@code blocks} (all the blocks of a plan, in block order) with up to {@code execution.threads()}
     * concurrent folds, merging in the order above.
     */
    default Mono<A> reduce(Flux<RowBlock> blocks, Execution execution) {
        Flux<A> partials = execution.threads() == 1
                ? blocks.map(this::fold)
                : blocks.flatMapSequential(
                        b -> Mono.fromCallable(() -> fold(b)).subscribeOn(execution.scheduler()),
                        execution.threads(), 1);
        return partials.window(SEGMENT_BLOCKS)
                .concatMap(segment -> segment.reduceWith(this::identity, this::merge), 1)
                .reduceWith(this::identity, this::merge);
    }
}
