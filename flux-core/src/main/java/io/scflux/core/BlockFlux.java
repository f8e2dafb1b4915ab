package io.scflux.core;

import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import reactor.core.publisher.SynchronousSink;
import reactor.core.scheduler.Scheduler;

/**
 * The one way a source becomes a {@code Flux<RowBlock>}: a reader opened per subscription, blocks read on demand
 * in block order, at most {@code threads} blocks in flight, the reader closed on complete, error or cancel.
 */
final class BlockFlux {

    private BlockFlux() {
    }

    static Flux<RowBlock> of(BlockSource source, BlockPlan plan, Execution execution) {
        int n = plan.size();
        int threads = execution.threads();
        return withReader(source, plan, execution, reader -> threads == 1 ? sequential(reader, plan, n)
                : parallel(reader, plan, n, threads, execution.scheduler()));
    }

    /**
     * What {@code reads} makes of a reader of {@code source} (checked to cover {@code plan}'s rows) opened per
     * subscription on {@code execution}'s scheduler and closed on complete, error or cancel, reads in flight then
     * finishing first.
     */
    static <T> Flux<T> withReader(BlockSource source, BlockPlan plan, Execution execution,
                                  Function<GuardedReader, Flux<T>> reads) {
        if (plan.totalRows() != source.nRows()) {
            return Flux.error(new IllegalArgumentException("plan covers " + plan.totalRows() + " rows but "
                    + source.describe() + " has " + source.nRows()));
        }
        return Flux.using(() -> new GuardedReader(source.open()), reads, GuardedReader::close)
                .subscribeOn(execution.scheduler(), true);
    }

    private static Flux<RowBlock> sequential(RowReader reader, BlockPlan plan, int n) {
        return Flux.generate(() -> 0, (i, sink) -> {
            if (i == n) {
                sink.complete();
            } else {
                sink.next(reader.read(i, plan.rowStart(i), plan.rowEnd(i)));
            }
            return i + 1;
        });
    }

    /**
     * Reads up to {@code threads} blocks at once and emits them in order. A failed read is carried as a signal to its
     * place in the order, so the subscriber sees every block before it, then the error (never a later block).
     */
    private static Flux<RowBlock> parallel(RowReader reader, BlockPlan plan, int n, int threads,
                                           Scheduler scheduler) {
        return Flux.range(0, n)
                .flatMapSequential(i -> Mono.fromCallable(() -> reader.read(i, plan.rowStart(i), plan.rowEnd(i)))
                        .subscribeOn(scheduler)
                        .materialize(), threads, 1)
                .handle((Signal<RowBlock> signal, SynchronousSink<RowBlock> sink) -> {
                    if (signal.isOnError()) {
                        sink.error(signal.getThrowable());
                    } else if (signal.hasValue()) {
                        sink.next(signal.get());
                    }
                });
    }
}
