/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.hdf5.ReadStats;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The service's Micrometer meters, scraped in the Prometheus text format: the blocks the jobs process, as they go; the
 * numbers {@code --stats} prints (blocks and bytes the jobs read from their input files, from each file's {@link ReadStats}; the block cache's hits and
 * misses) and the duration of each job from leaving the queue to its end, tagged by outcome.
 */
final class ServiceMetrics {

    /** The content type of {@link #scrape}. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Counter processed;
    private final Counter blocks;
    private final Counter bytes;

    ServiceMetrics(BlockCache cache) {
        processed = Counter.builder("scflux.blocks.processed")
                .description("Row blocks of X the jobs' steps and writes took, from the cache or the file, as they go")
                .register(registry);
        blocks = Counter.builder("scflux.blocks.read")
                .description("Row blocks of X that jobs decoded from their input files (added when a job ends)")
                .register(registry);
        bytes = Counter.builder("scflux.read")
                .baseUnit("bytes")
                .description("Bytes jobs read from the storage of their input files' X (added when a job ends)")
                .register(registry);
        FunctionCounter.builder("scflux.cache.hits", cache, c -> c.stats().hits())
                .description("Block reads the shared block cache served")
                .register(registry);
        FunctionCounter.builder("scflux.cache.misses", cache, c -> c.stats().misses())
                .description("Block reads the shared block cache sent to the file")
                .register(registry);
    }

    /** Counts one block a job's step or write took. */
    void blockProcessed() {
        processed.increment();
    }

    /** Records a job that ended with {@code outcome} after {@code nanos} and what it read ({@code reads}, or null). */
    void jobEnded(String outcome, long nanos, @Nullable ReadStats reads) {
        if (reads != null) {
            blocks.increment(reads.blocksRead());
            bytes.increment(reads.bytesRead());
        }
        Timer.builder("scflux.job.duration")
                .description("Jobs from leaving the queue to their last event")
                .tag("outcome", outcome)
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Every meter in the Prometheus text format. */
    String scrape() {
        return registry.scrape();
    }
}
