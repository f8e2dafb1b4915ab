/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a step streams its input: the {@link PlanTarget} its block plan is cut with, the {@link Execution} that
 * decodes and folds blocks, the {@link Backend} whose kernels do the arithmetic (the host unless a device is
 * chosen), the {@link Engine} its reductions run on (this JVM unless a cluster is chosen), and where a step's
 * warnings go (scanpy's {@code adata.X seems to be already log-transformed}...), and the {@link Settings} an edge
 * read from its environment (the cache folder a step spills to). The target decides the bits of a
 * result; the execution and the engine only its speed.
 *
 * <p>Warnings are logged (SLF4J, at warn) unless a caller passes its own place for them ({@link #withWarnings}): the
 * command line prints them as {@code scflux: warning: ...}.
 */
public record Streaming(
        PlanTarget target,
        Execution execution,
        Backend backend,
        Engine engine,
        Consumer<String> warnings,
        Settings settings) {

    private static final Logger LOG = LoggerFactory.getLogger(Streaming.class);

    public static final Streaming DEFAULT = new Streaming(PlanTarget.DEFAULT, Execution.sequential());

    public Streaming {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(warnings, "warnings");
        Objects.requireNonNull(settings, "settings");
    }

    /**
     * Warnings to the log, {@link Settings#DEFAULT}'s settings.
     *
     * @param target the block sizes aimed at
     * @param execution the workers
     * @param backend where kernels compute
     * @param engine where reductions run
     */
    public Streaming(PlanTarget target, Execution execution, Backend backend, Engine engine) {
        this(target, execution, backend, engine, LOG::warn, Settings.DEFAULT);
    }

    /**
     * On the local engine.
     *
     * @param target the block sizes aimed at
     * @param execution the workers
     * @param backend where kernels compute
     */
    public Streaming(PlanTarget target, Execution execution, Backend backend) {
        this(target, execution, backend, Engine.LOCAL);
    }

    /**
     * On the host backend and the local engine.
     *
     * @param target the block sizes aimed at
     * @param execution the workers
     */
    public Streaming(PlanTarget target, Execution execution) {
        this(target, execution, HostBackend.INSTANCE);
    }

    /**
     * This streaming on {@code threads} workers (results do not depend on them).
     *
     * @param threads the workers, at least 1
     * @return this streaming with them
     */
    public Streaming withThreads(int threads) {
        return new Streaming(target, Execution.threads(threads), backend, engine, warnings, settings);
    }

    /**
     * This streaming with another block target (which decides a result's bits).
     *
     * @param t the block sizes aimed at
     * @return this streaming with it
     */
    public Streaming withTarget(PlanTarget t) {
        return new Streaming(t, execution, backend, engine, warnings, settings);
    }

    /**
     * This streaming computing on {@code b}.
     *
     * @param b the backend
     * @return this streaming with it
     */
    public Streaming withBackend(Backend b) {
        return new Streaming(target, execution, b, engine, warnings, settings);
    }

    /**
     * This streaming reducing on {@code e} (a cluster's, or this JVM's).
     *
     * @param e the engine
     * @return this streaming with it
     */
    public Streaming withEngine(Engine e) {
        return new Streaming(target, execution, backend, e, warnings, settings);
    }

    /**
     * Sends the steps' warnings to {@code to} (each a one-line message without a prefix).
     *
     * @param to where warnings go
     * @return this streaming with it
     */
    public Streaming withWarnings(Consumer<String> to) {
        return new Streaming(target, execution, backend, engine, to, settings);
    }

    /**
     * This streaming with {@code s}: the cache folder its steps spill to, and the settings an edge read for the files
     * the run opens and writes.
     *
     * @param s the settings
     * @return this streaming with them
     */
    public Streaming withSettings(Settings s) {
        return new Streaming(target, execution, backend, engine, warnings, s);
    }

    /**
     * Reports a step's warning.
     *
     * @param message one line, without a prefix
     */
    public void warn(String message) {
        warnings.accept(message);
    }

    /**
     * The blocks of {@code source} under this target and execution, on the heap: a step reads their arrays, so the
     * blocks of a source resident on a device are downloaded here, and only here.
     *
     * @param source the matrix
     * @return a cold flux of its heap blocks, in order
     */
    public reactor.core.publisher.Flux<RowBlock> blocks(BlockSource source) {
        BlockSource onHeap = PlacedSource.on(HostBackend.INSTANCE, source);
        return onHeap.blocks(onHeap.plan(target), execution);
    }

    /**
     * As {@link #blocks}, each block mapped by {@code then} on the worker that read it, the results emitted in block
     * order: what a pass takes from each block is taken in parallel, and only that is held.
     *
     * @param <T> what a block is mapped to
     * @param source the matrix
     * @param then the mapping, run on the worker that read the block
     * @return a cold flux of the mapped blocks, in order
     */
    public <T> reactor.core.publisher.Flux<T> blocks(BlockSource source, Function<RowBlock, T> then) {
        BlockSource onHeap = PlacedSource.on(HostBackend.INSTANCE, source);
        return onHeap.blocks(onHeap.plan(target), execution, then);
    }

    /**
     * As {@link #blocks}, each block read into a buffer that the subscriber gives back once it has read it
     * ({@link BlockSource#buffers}), the buffers accounted in the host's account.
     *
     * @param source the matrix
     * @return a cold flux of buffers, in order, each to be released once read
     */
    public reactor.core.publisher.Flux<BlockBuffer> buffers(BlockSource source) {
        BlockSource onHeap = PlacedSource.on(HostBackend.INSTANCE, source);
        return onHeap.buffers(onHeap.plan(target), execution, HostBackend.INSTANCE.memory());
    }

    /**
     * Folds every block of {@code source} with {@code reducer} on the engine, merging in block order; blocks reach the
     * reducer on the heap, as in {@link #blocks}.
     *
     * @param <A> the reducer's partial
     * @param source the matrix
     * @param reducer the fold and merge
     * @return a cold Mono of the reduction of every block
     */
    public <A> reactor.core.publisher.Mono<A> reduce(BlockSource source, Reducer<A> reducer) {
        return reactor.core.publisher.Mono.defer(() -> {
            BlockSource onHeap = PlacedSource.on(HostBackend.INSTANCE, source);
            return engine.reduce(onHeap, onHeap.plan(target), reducer, execution);
        });
    }
}
