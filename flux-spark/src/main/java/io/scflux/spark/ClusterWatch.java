/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import io.scflux.core.ClusterException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.jspecify.annotations.Nullable;

/**
 * Watches a job for a cluster that cannot run it, which Spark itself waits on forever: no executor registered (the
 * application asks for more than the cluster has) or executors that keep exiting (one that dies at launch is
 * relaunched by its worker again and again). When no task has finished for the whole bound and none is running, its
 * jobs are cancelled and it fails with a {@link ClusterException} naming the reason Spark reported (the last executor
 * lost, else that none registered). A running task, however slow, is never cut short.
 */
final class ClusterWatch extends SparkListener {

    private final JavaSparkContext context;
    private final long boundNanos;
    private final AtomicInteger alive = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    /** Executors lost since a task last finished. */
    private final AtomicInteger lost = new AtomicInteger();

    private volatile @Nullable String lastLoss;
    /** When a task last finished, or a watched job started: the bound counts from the later. */
    private volatile long progressNanos = System.nanoTime();

    private volatile @Nullable String failure;

    private ClusterWatch(JavaSparkContext context, Duration bound) {
        this.context = context;
        this.boundNanos = bound.toNanos();
    }

    /** A watch on {@code context}'s executors, registered as its listener. */
    static ClusterWatch on(JavaSparkContext context, Duration bound) {
        ClusterWatch watch = new ClusterWatch(context, bound);
        context.sc().addSparkListener(watch);
        return watch;
    }

    @Override
    public void onExecutorAdded(SparkListenerExecutorAdded added) {
        alive.incrementAndGet();
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved removed) {
        alive.decrementAndGet();
        lost.incrementAndGet();
        lastLoss =
                "executor " + removed.executorId() + " exited: " + removed.reason() + " (its output: in the worker's "
                        + "work directory, " + context.sc().applicationId() + "/" + removed.executorId() + "/stderr)";
    }

    @Override
    public void onTaskStart(SparkListenerTaskStart start) {
        running.incrementAndGet();
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        running.decrementAndGet();
        if (end.taskInfo().successful()) {
            progressNanos = System.nanoTime();
            lost.set(0);
        }
    }

    /**
     * Runs {@code job} (which submits Spark jobs on this watch's context and waits for them), checking once a second
     * that the cluster can run it; a {@link ClusterException} when it cannot, within the bound.
     */
    <T> @Nullable T run(Callable<T> job) throws Exception {
        progressNanos = System.nanoTime();
        failure = null;
        Thread checker = new Thread(this::check, "scflux-cluster-watch");
        checker.setDaemon(true);
        checker.start();
        try {
            return job.call();
        } catch (Exception e) {
            String why = failure;
            if (why != null) {
                throw new ClusterException(why);
            }
            throw e;
        } finally {
            checker.interrupt();
        }
    }

    private void check() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(1000);
                String why = stalled(System.nanoTime());
                if (why != null) {
                    failure = why;
                    context.cancelAllJobs();
                    return;
                }
            }
        } catch (InterruptedException e) {
            // the job ended
        }
    }

    /** Why the cluster cannot run the job at {@code now}, or null while it may. */
    @Nullable
    String stalled(long now) {
        if (now - progressNanos < boundNanos || running.get() > 0) {
            return null;
        }
        long seconds = Duration.ofNanos(boundNanos).toSeconds();
        String loss = lastLoss;
        if (lost.get() > 0 && loss != null) {
            return "Spark: executors keep failing (" + lost.get() + " lost in " + seconds
                    + " s without a task finishing); the last: " + loss;
        }
        if (alive.get() > 0) {
            return null;
        }
        SparkConf conf = context.getConf();
        return "Spark: no executor registered in " + seconds + " s: the cluster " + context.master()
                + " has not accepted the application's resources (asked for spark.executor.memory="
                + conf.get("spark.executor.memory", "1g") + ", spark.executor.cores="
                + conf.get("spark.executor.cores", "all of a worker's") + ", spark.cores.max="
                + conf.get("spark.cores.max", "unbounded")
                + "): check that workers are registered and have that much free (--spark-timeout to wait longer)";
    }
}
