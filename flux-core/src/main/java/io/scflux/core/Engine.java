/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.List;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Where a reducer's per-block folds run: in this JVM on Reactor workers ({@link #LOCAL}), or on a cluster that reads
 * its share of the blocks itself. Either way every block is folded on its own and the partials are merged on the
 * caller in block order, so the engine decides where the work happens, never the bits of a result.
 */
public interface Engine {

    /** Folds and merges in this JVM with {@code execution}'s workers, each reading the segments it folds. */
    Engine LOCAL = new Engine() {
        @Override
        public <A> Mono<A> reduce(BlockSource source, BlockPlan plan, Reducer<A> reducer, Execution execution) {
            return reducer.reduce(source, plan, execution);
        }

        @Override
        public <R> Mono<List<R>> run(List<? extends Task<R>> tasks, Execution execution) {
            return Flux.fromIterable(tasks)
                    .flatMapSequential(
                            t -> Mono.fromCallable(t::call).subscribeOn(execution.scheduler()), execution.threads(), 1)
                    .collectList();
        }

        @Override
        public int parallelism(Execution execution) {
            return execution.threads();
        }

        @Override
        public String toString() {
            return "local";
        }
    };

    /** Folds every block of {@code plan} over {@code source} with {@code reducer}, merging the partials in block order. */
    <A> Mono<A> reduce(BlockSource source, BlockPlan plan, Reducer<A> reducer, Execution execution);

    /**
     * Runs independent tasks (each, say, one share of an accumulator that reads every block) where the engine runs
     * work, and emits their results in the order of {@code tasks}.
     */
    <R> Mono<List<R>> run(List<? extends Task<R>> tasks, Execution execution);

    /** How many tasks run at once: what a step that splits its work into {@link #run} tasks splits it by. */
    int parallelism(Execution execution);

    /** A unit of work that can be shipped to another JVM. */
    @FunctionalInterface
    interface Task<R> extends java.io.Serializable {
        R call() throws Exception;
    }

    /** True when folds run in this JVM (a step may then share one accumulator between workers). */
    default boolean isLocal() {
        return this == LOCAL;
    }
}
