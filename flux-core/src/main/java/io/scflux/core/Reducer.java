package io.scflux.core;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Folds blocks into a result (sums, means and variances, Gram matrices). Each block is folded on its own,
 * sequentially, and the partials are merged in block order whatever worker finished first; floating-point addition
 * is not associative, so this rule is what gives the same bits with 1 or 16 threads.
 *
 * <p>A reducer is serializable, and so must its partials be, so that an {@link Engine} can fold blocks in other JVMs
 * and send the partials back to be merged.
 *
 * @param <A> the accumulator: a partial for one block, or for a run of consecutive blocks
 */
public interface Reducer<A> extends java.io.Serializable {

    /** The partial of no blocks; {@code merge(identity(), p)} must equal {@code p}. */
    A identity();

    /** The partial of one block. May run on any worker, concurrently with other blocks. */
    A fold(RowBlock block);

    /** Combines {@code earlier} (blocks before) with {@code later}; may reuse and return {@code earlier}. */
    A merge(A earlier, A later);

    /** Folds {@code blocks} with up to {@code execution.threads()} concurrent folds, merging in block order. */
    default Mono<A> reduce(Flux<RowBlock> blocks, Execution execution) {
        Flux<A> partials = execution.threads() == 1
                ? blocks.map(this::fold)
                : blocks.flatMapSequential(
                        b -> Mono.fromCallable(() -> fold(b)).subscribeOn(execution.scheduler()),
                        execution.threads(), 1);
        return partials.reduceWith(this::identity, this::merge);
    }
}
