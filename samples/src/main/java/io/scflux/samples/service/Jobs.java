/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.Streaming;
import io.scflux.core.cache.BlockCache;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

/**
 * The service's jobs by id: at most {@code maxJobs} run at once, the others wait in submission order; all their file
 * work runs on the {@code work} scheduler, their reads of X share {@code cache}, their outputs are kept under the
 * limit of {@code results}, a failed job's error is told through {@code redaction}. Only the last {@code keepJobs}
 * jobs that ended are kept: older ones are forgotten (their outputs stay in the data folder, under that limit still),
 * so memory stays bounded.
 */
final class Jobs implements Disposable {

    private final Map<String, Job> byId = new ConcurrentHashMap<>();
    /** The ids in submission order (those forgotten are skipped when listed, and dropped now and then). */
    private final Deque<String> order = new ArrayDeque<>();

    /** How long {@link #dispose} waits for the running jobs to end. */
    static final Duration STOP_PATIENCE = Duration.ofSeconds(10);

    private final Sinks.Many<Job> queue = Sinks.many().unicast().onBackpressureBuffer();
    private final Disposable runner;
    private final int keepJobs;
    /** The ids of the jobs that ended, oldest first. */
    private final Deque<String> ended = new ArrayDeque<>();

    private final UnaryOperator<String> redaction;

    Jobs(
            int maxJobs,
            int keepJobs,
            Scheduler work,
            Streaming streaming,
            BlockCache cache,
            ServiceMetrics metrics,
            Results results,
            UnaryOperator<String> redaction) {
        if (keepJobs < 1) {
            throw new IllegalArgumentException("keepJobs must be at least 1, got " + keepJobs);
        }
        this.keepJobs = keepJobs;
        this.redaction = redaction;
        this.runner = queue.asFlux()
                .flatMap(job -> job.run(work, streaming, cache, metrics, results), maxJobs)
                .subscribe();
    }

    /**
     * A new job for {@code request}, queued. Its id is 128 random bits ({@link Secrets#id}): it names the job's routes
     * and output, so it must not be guessed. Off the event loop (it draws from SecureRandom).
     */
    Job submit(JobRequest request) {
        String id = Secrets.id();
        Job job = new Job(id, request, redaction, () -> retire(id));
        byId.put(job.id(), job);
        synchronized (order) {
            order.addLast(id);
            if (order.size() > 2 * byId.size() + 16) {
                order.removeIf(i -> !byId.containsKey(i));
            }
        }
        synchronized (queue) {
            queue.emitNext(job, Sinks.EmitFailureHandler.FAIL_FAST);
        }
        return job;
    }

    /** Counts {@code id} among the ended jobs and forgets the oldest beyond {@code keepJobs}. */
    private void retire(String id) {
        synchronized (ended) {
            ended.addLast(id);
            while (ended.size() > keepJobs) {
                byId.remove(ended.removeFirst());
            }
        }
    }

    /** The jobs known (running, queued, and the last ones that ended), in submission order. */
    List<Job> all() {
        List<Job> out = new ArrayList<>();
        synchronized (order) {
            for (String id : order) {
                Job j = byId.get(id);
                if (j != null) {
                    out.add(j);
                }
            }
        }
        return out;
    }

    /** The job {@code id}, or null (never submitted, or forgotten). */
    @Nullable
    Job get(String id) {
        return byId.get(id);
    }

    /**
     * Cancels every job and waits, up to {@link #STOP_PATIENCE}, until the running ones have ended: a running job ends
     * once its writer has removed its temporary file, so a stopped service leaves nothing half-written behind (and a
     * caller may delete the data folder once this returns). Blocking: not on an event loop.
     */
    @Override
    public void dispose() {
        List<Job> known = List.copyOf(byId.values());
        known.forEach(Job::cancel);
        Flux.fromIterable(known)
                .flatMap(job -> job.events().then())
                .then()
                .timeout(STOP_PATIENCE)
                .onErrorComplete(TimeoutException.class)
                .block();
        runner.dispose();
    }
}
