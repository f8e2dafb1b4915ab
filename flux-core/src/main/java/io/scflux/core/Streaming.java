package io.scflux.core;

import io.scflux.core.backend.Backend;
import io.scflux.core.backend.HostBackend;
import java.util.Objects;

/**
 * How a step streams its input: the {@link PlanTarget} its block plan is cut with, the {@link Execution} that
 * decodes and folds blocks, and the {@link Backend} whose kernels do the arithmetic (the host unless a device is
 * chosen). The target decides the bits of a result; the execution only its speed.
 */
public record Streaming(PlanTarget target, Execution execution, Backend backend) {

    public static final Streaming DEFAULT = new Streaming(PlanTarget.DEFAULT, Execution.sequential());

    public Streaming {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(backend, "backend");
    }

    /** On the host backend. */
    public Streaming(PlanTarget target, Execution execution) {
        this(target, execution, HostBackend.INSTANCE);
    }

    public Streaming withThreads(int threads) {
        return new Streaming(target, Execution.threads(threads), backend);
    }

    public Streaming withTarget(PlanTarget t) {
        return new Streaming(t, execution, backend);
    }

    public Streaming withBackend(Backend b) {
        return new Streaming(target, execution, b);
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
