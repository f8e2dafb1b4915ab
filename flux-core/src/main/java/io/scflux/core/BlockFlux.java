/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.function.Function;
import java.util.function.IntFunction;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import reactor.core.publisher.SynchronousSink;
import reactor.core.scheduler.Scheduler;

/**
 * The one way a source becomes a {@code Flux<RowBlock>} (or a flux of reused {@link BlockBuffer}s): a reader opened
 * per subscription, blocks read on demand in block order, at most {@code threads} blocks in flight, the reader closed
 * on complete, error or cancel.
 */
final class BlockFlux {

    private BlockFlux() {}

    static Flux<RowBlock> of(Function<Pass, RowReader> open, BlockPlan plan, Execution execution) {
        return mapped(open, plan, execution, Function.identity());
    }

    /** The blocks of {@code plan}, each mapped by {@code then} where it was read. */
    static <T> Flux<T> mapped(
            Function<Pass, RowReader> open, BlockPlan plan, Execution execution, Function<RowBlock, T> then) {
        return withReader(
                open,
                plan,
                execution,
                reader -> inOrder(
                        plan.size(), execution, i -> then.apply(reader.read(i, plan.rowStart(i), plan.rowEnd(i)))));
    }

    /**
     * The blocks of {@code plan} read into buffers of a pool made for the pass ({@link BlockBuffers}, accounted under
     * {@code account}), which the subscriber gives back once it has read each: in flight, at most {@code threads}
     * reads, the blocks they wait on to keep the order, and what the subscriber has requested and not released.
     */
    static Flux<BlockBuffer> buffered(
            Function<Pass, RowReader> open, BlockPlan plan, Execution execution, MemoryAccount account) {
        return Flux.using(
                () -> new BlockBuffers(plan, account),
                pool -> withReader(
                        open,
                        plan,
                        execution,
                        reader -> inOrder(plan.size(), execution, i -> {
                            BlockBuffer b = pool.take();
                            try {
                                reader.readInto(i, plan.rowStart(i), plan.rowEnd(i), b);
                            } catch (RuntimeException | Error e) {
                                b.release();
                                throw e;
                            }
                            return b;
                        })),
                BlockBuffers::close);
    }

    /**
     * What {@code reads} makes of a reader opened by {@code open} per subscription on {@code execution}'s scheduler,
     * as a {@link Pass} over {@code plan} named in the subscriber's context, and closed on complete, error or cancel,
     * reads in flight then finishing first. An error of {@code open} (a plan of another source) fails the flux.
     */
    static <T> Flux<T> withReader(
            Function<Pass, RowReader> open,
            BlockPlan plan,
            Execution execution,
            Function<GuardedReader, Flux<T>> reads) {
        return Flux.deferContextual(context -> Flux.using(
                        () -> new GuardedReader(Pass.open(open, plan, context)), reads, GuardedReader::close))
                .subscribeOn(execution.scheduler(), true);
    }

    /** Blocks {@code 0..n-1} as {@code read} reads them: one after the other, or up to {@code threads} at once. */
    private static <T> Flux<T> inOrder(int n, Execution execution, IntFunction<T> read) {
        return execution.threads() == 1
                ? sequential(n, read)
                : parallel(n, execution.threads(), execution.scheduler(), read);
    }

    /** Blocks read on demand, one per request; the last one comes with the completion, as Reactor's own sources. */
    private static <T> Flux<T> sequential(int n, IntFunction<T> read) {
        return Flux.generate(() -> 0, (i, sink) -> {
            if (i < n) {
                sink.next(read.apply(i));
            }
            if (i + 1 >= n) {
                sink.complete();
            }
            return i + 1;
        });
    }

    /**
     * Reads up to {@code threads} blocks at once and emits them in order. A failed read is carried as a signal to its
     * place in the order, so the subscriber sees every block before it, then the error (never a later block).
     */
    private static <T> Flux<T> parallel(int n, int threads, Scheduler scheduler, IntFunction<T> read) {
        return Flux.range(0, n)
                .flatMapSequential(
                        i -> Mono.fromCallable(() -> read.apply(i))
                                .subscribeOn(scheduler)
                                .materialize(),
                        threads,
                        1)
                .handle((Signal<T> signal, SynchronousSink<T> sink) -> {
                    Throwable error = signal.getThrowable();
                    T value = signal.get();
                    if (error != null) {
                        sink.error(error);
                    } else if (value != null) {
                        sink.next(value);
                    }
                });
    }
}
