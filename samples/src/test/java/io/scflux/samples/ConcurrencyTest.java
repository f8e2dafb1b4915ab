/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Frame;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.Pp;
import io.scflux.ops.qc.QcMetricsOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * Sixteen subscribers at once on one file and one shared block cache, each opening it with {@link H5ad#open} from
 * Reactor's non-blocking threads, get the bits one subscriber gets; BlockHound is installed, so any blocking call (a file read, a lock wait) on a
 * non-blocking thread fails the run.
 */
class ConcurrencyTest {

    static final int SUBSCRIBERS = 16;

    @BeforeAll
    static void watchForBlockingCalls() {
        BlockHound.install();
    }

    @Test
    void blockHoundIsWatching() {
        StepVerifier.create(Mono.fromCallable(() -> {
                            Thread.sleep(1);
                            return 1;
                        })
                        .subscribeOn(Schedulers.parallel()))
                .expectError(BlockingOperationError.class)
                .verify();
    }

    @Test
    void sixteenSubscribersOnOneFileAndOneCacheAgreeWithOne() {
        Path file = TestFixtures.path("synth-3k-b.h5ad");
        BlockCache cache = BlockCache.ofMegabytes(64);
        Streaming streaming = Streaming.DEFAULT.withThreads(2);
        QcMetricsOptions options = QcMetricsOptions.defaults();

        Map<String, Object> alone = qc(file, cache, options, streaming).block();
        List<Map<String, Object>> together = Flux.range(0, SUBSCRIBERS)
                .flatMap(i -> qc(file, cache, options, streaming).subscribeOn(Schedulers.parallel()), SUBSCRIBERS)
                .collectList()
                .block();

        assertEquals(SUBSCRIBERS, together.size());
        for (Map<String, Object> r : together) {
            assertEquals(alone.keySet(), r.keySet());
            for (String column : alone.keySet()) {
                assertTrue(java.util.Objects.deepEquals(alone.get(column), r.get(column)), column + " differs");
            }
        }
        assertTrue(cache.stats().hits() > 0, "the subscribers shared the cache: " + cache.stats());
    }

    /**
     * QC metrics of {@code file}, opened the reactive way (its obs and var read on a bounded-elastic worker) with X read
     * through the shared {@code cache}: the obs and var columns' values by name.
     */
    private static Mono<Map<String, Object>> qc(
            Path file, BlockCache cache, QcMetricsOptions options, Streaming streaming) {
        return H5ad.open(file)
                .map(data -> new AnnData(cache.cached(data.x()), data.obs(), data.var()))
                .flatMap(data -> Pp.calculateQcMetrics(data, options, streaming))
                .map(d -> {
                    Map<String, Object> values = new TreeMap<>();
                    for (Frame f : List.of(d.obs(), d.var())) {
                        String axis = f == d.obs() ? "obs/" : "var/";
                        f.columns().forEach((name, c) -> {
                            if (c instanceof ArrayColumn a) {
                                values.put(axis + name, a.values().data());
                            }
                        });
                    }
                    return values;
                });
    }
}
