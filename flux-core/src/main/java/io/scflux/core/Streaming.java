package io.scflux.core;

import java.util.Objects;

/**
 * How a step streams its input: the {@link PlanTarget} its block plan is cut with and the {@link Execution} that
 * decodes and folds blocks. The target decides the bits of a result; the execution only its speed.
 */
public record Streaming(PlanTarget target, Execution execution) {

    public static final Streaming DEFAULT = new Streaming(PlanTarget.DEFAULT, Execution.sequential());

    public Streaming {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(execution, "execution");
    }

    public Streaming withThreads(int threads) {
        return new Streaming(target, Execution.threads(threads));
    }

    public Streaming withTarget(PlanTarget t) {
        return new Streaming(t, execution);
    }

    /** The blocks of {@code source} under this target and execution. */
    public reactor.core.publisher.Flux<RowBlock> blocks(BlockSource source) {
        return source.blocks(source.plan(target), execution);
    }

    /** Folds every block of {@code source} with {@code reducer}, merging in block order. */
    public <A> reactor.core.publisher.Mono<A> reduce(BlockSource source, Reducer<A> reducer) {
        return reactor.core.publisher.Mono.defer(() -> reducer.reduce(blocks(source), execution));
    }
}
