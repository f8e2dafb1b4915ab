/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Engine;
import io.scflux.core.Execution;
import io.scflux.core.Reducer;
import io.scflux.core.RowReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The {@link Engine} on Apache Spark: a block plan becomes partitions of one merge run each ({@link Reducer#runs});
 * each task opens the source itself (a file by its path, which every executor must see), folds the run's segments and
 * merges them with the operator's own reducer as the local engine does ({@link Reducer#foldRun}), and returns that
 * one partial; the driver merges the runs' partials in order, as the local engine does, so a result has the same
 * bits. Partitions are collected a window (two per core) at a time, which bounds what the driver holds to a few
 * partials.
 */
public final class SparkEngine implements Engine, AutoCloseable {

    /** How long a job may wait with no task finishing and none running before the cluster is given up on. */
    public static final Duration DEFAULT_BOUND = Duration.ofSeconds(120);

    private final JavaSparkContext context;
    private final boolean owned;
    /** Null in local mode, where the driver runs the tasks. */
    private final @Nullable ClusterWatch watch;

    private SparkEngine(JavaSparkContext context, boolean owned, @Nullable ClusterWatch watch) {
        this.context = context;
        this.owned = owned;
        this.watch = watch;
    }

    /**
     * An engine on a new Spark context for {@code master} ({@code local[2]}, {@code spark://host:7077}...; null for
     * the {@code spark.master} that spark-submit sets, else {@code local[*]}), closed with this engine. Task results
     * are not capped: the partials are what the driver is meant to receive. Outside spark-submit, the jar holding
     * scflux's classes is shipped to the executors.
     */
    public static SparkEngine start(String master) {
        return start(master, Map.of(), DEFAULT_BOUND);
    }

    /**
     * {@link #start(String)} with {@code settings} set on the Spark configuration (as {@code --conf} sets them), and
     * a job on a cluster failed with a {@link io.scflux.core.ClusterException} naming Spark's reason when no task
     * finishes and none runs for {@code bound} (no executor registered, executors that keep exiting).
     */
    public static SparkEngine start(String master, Map<String, String> settings, Duration bound) {
        SparkConf conf = new SparkConf();
        settings.forEach(conf::set);
        conf.setMaster(master != null ? master : conf.get("spark.master", "local[*]"))
                .setAppName(conf.get("spark.app.name", "scflux"))
                .setIfMissing("spark.ui.enabled", "false")
                .setIfMissing("spark.driver.maxResultSize", "0");
        if (!conf.contains("spark.jars")) {
            // outside spark-submit, executors get scflux's classes from the jar this class was loaded from
            conf.setJars(JavaSparkContext.jarOfClass(SparkEngine.class));
        }
        JavaSparkContext context = new JavaSparkContext(conf);
        context.setLogLevel("WARN");
        return new SparkEngine(context, true, context.isLocal() ? null : ClusterWatch.on(context, bound));
    }

    /** An engine on a context the caller owns (and stops). */
    public static SparkEngine on(JavaSparkContext context) {
        return new SparkEngine(Objects.requireNonNull(context, "context"), false, null);
    }

    /** The Spark context the tasks run on. */
    public JavaSparkContext context() {
        return context;
    }

    @Override
    public int parallelism(Execution execution) {
        return context.defaultParallelism();
    }

    @Override
    public <A> Mono<A> reduce(BlockSource source, BlockPlan plan, Reducer<A> reducer, Execution execution) {
        return Mono.fromCallable(() -> watched(() -> {
                    List<int[]> ranges = Reducer.runs(plan.size(), reducer.segmentBlocks());
                    JavaRDD<A> partials = context.parallelize(ranges, Math.max(1, ranges.size()))
                            .mapPartitions(range -> List.of(run(source, plan, reducer, range.next()))
                                    .iterator());
                    A acc = reducer.identity();
                    int window = 2 * Math.max(1, context.defaultParallelism());
                    for (int first = 0; first < ranges.size(); first += window) {
                        int[] ids = new int[Math.min(window, ranges.size() - first)];
                        for (int i = 0; i < ids.length; i++) {
                            ids[i] = first + i;
                        }
                        for (List<A> part : partials.collectPartitions(ids)) {
                            for (A p : part) {
                                acc = reducer.merge(acc, p);
                            }
                        }
                    }
                    return acc;
                }))
                .subscribeOn(Schedulers.boundedElastic());
    }

    /** One task: the partial of the run of blocks {@code [range[0], range[1])}. */
    private static <A> A run(BlockSource source, BlockPlan plan, Reducer<A> reducer, int[] range) {
        try (RowReader reader = source.open()) {
            return reducer.foldRun(reader, plan, range[0], range[1]);
        }
    }

    @Override
    public <R> Mono<List<R>> run(List<? extends Task<R>> tasks, Execution execution) {
        return Mono.fromCallable(() -> watched(() -> context.parallelize(List.copyOf(tasks), Math.max(1, tasks.size()))
                        .map(Task::call)
                        .collect()))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private <T> @Nullable T watched(Callable<T> job) throws Exception {
        return watch == null ? job.call() : watch.run(job);
    }

    /** Stops the Spark context if this engine started it. */
    @Override
    public void close() {
        if (owned) {
            context.stop();
        }
    }

    @Override
    public String toString() {
        return "spark " + context.master();
    }
}
