/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * How many workers decode and fold blocks, and on which scheduler. Work runs on a scheduler that allows blocking
 * (file reads), never on the subscriber's thread. Results never depend on it: see {@link Reducer}.
 */
public final class Execution {

    private static final Execution SEQUENTIAL = new Execution(1, null);

    private final int threads;
    private final @Nullable Scheduler scheduler;

    private Execution(int threads, @Nullable Scheduler scheduler) {
        if (threads < 1) {
            throw new InvalidOptionException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
        this.scheduler = scheduler;
    }

    /** One worker on the shared bounded-elastic scheduler. */
    public static Execution sequential() {
        return SEQUENTIAL;
    }

    /** {@code threads} workers on the shared bounded-elastic scheduler. */
    public static Execution threads(int threads) {
        return threads == 1 ? SEQUENTIAL : new Execution(threads, null);
    }

    public Execution on(Scheduler scheduler) {
        return new Execution(threads, scheduler);
    }

    public int threads() {
        return threads;
    }

    public Scheduler scheduler() {
        return scheduler != null ? scheduler : Schedulers.boundedElastic();
    }

    @Override
    public String toString() {
        return "Execution[" + threads + " threads]";
    }

    /** Copies of a block a worker holds at a time: the reader's, a stage's output and the reducer's. */
    public static final int BLOCK_COPIES = 3;

    /**
     * The bytes a worker holds in flight: {@link #BLOCK_COPIES} copies of a block of {@code target}'s size (int32
     * indices, float32 values).
     *
     * @param target the block sizes aimed at
     * @return the bytes
     */
    public static long bytesPerWorker(PlanTarget target) {
        return target.chunkNnz() * (Integer.BYTES + Float.BYTES) * BLOCK_COPIES;
    }

    /**
     * The most workers whose blocks in flight fit half the host's memory budget (the other half for obs, var, the
     * cache and a step's accumulators), at least one.
     *
     * @param target the block sizes aimed at
     * @return how many workers fit
     */
    public static int fitting(PlanTarget target) {
        return (int)
                Math.min(Integer.MAX_VALUE, Math.max(1, MemoryAccount.host().cap() / 2 / bytesPerWorker(target)));
    }
}
