/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.cache.BlockCache;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.Pp;
import io.scflux.ops.PreprocessOptions;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.pca.PcaOptions;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.Disposable;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

/**
 * A hundred runs of the multi-pass pipeline (read, QC + normalize + log1p, HVG, PCA Gram and projection passes, write)
 * cancelled at random moments: afterwards no file handle is open, no thread is alive outside the schedulers' pools,
 * the heap has not grown, and no output or temporary file exists.
 */
@Tag("cancellation")
class CancellationTest {

    static final int RUNS = 100;
    /** Threads that belong to pools which outlive a run by design. */
    static final List<String> POOLS =
            List.of("boundedElastic-", "parallel-", "scflux-hdf5", "single-", "boundedElastic-evictor", "reactor-");

    @TempDir
    Path dir;

    @Test
    void cancelledPipelinesLeaveNothingBehind() throws Exception {
        Path input = TestFixtures.path("synth-3k-b.h5ad");
        BlockCache cache = BlockCache.ofMegabytes(16);
        Streaming streaming = Streaming.DEFAULT.withThreads(2);
        Supplier<Mono<Void>> run = () -> Mono.fromCallable(() -> H5ad.read(input))
                .map(d -> new AnnData(cache.cached(d.x()), d.obs(), d.var()))
                .flatMap(d -> Pp.pipeline(
                        d,
                        PreprocessOptions.defaults(),
                        HighlyVariableGenesOptions.defaults().withNTopGenes(200),
                        PcaOptions.defaults().withNComps(10),
                        streaming))
                .flatMap(d -> H5ad.write(d, dir.resolve("out.h5ad")))
                .subscribeOn(streaming.execution().scheduler());

        run.get().block(); // warms every class and pool; the baseline is taken after
        long fullMillis = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long started = System.nanoTime();
            run.get().block();
            fullMillis = Math.min(fullMillis, Math.max(1, (System.nanoTime() - started) / 1_000_000));
        }
        Files.delete(dir.resolve("out.h5ad"));
        cache.clear();
        settle();
        int fds = openFiles();
        Set<String> threads = liveThreads();
        long heap = usedHeapAfterGc();

        SplittableRandom random = new SplittableRandom(7);
        int finished = 0;
        // A cancel interrupts the read under way on its worker (or closes the output under a write), which then fails
        // with no subscriber left to tell: Reactor hands such errors to onErrorDropped. They are collected here and
        // must all be the cancel's doing.
        ConcurrentLinkedQueue<Throwable> dropped = new ConcurrentLinkedQueue<>();
        Hooks.onErrorDropped(dropped::add);
        try {
            for (int i = 0; i < RUNS; i++) {
                Disposable d = run.get().subscribe();
                Thread.sleep(random.nextLong(fullMillis + 1));
                finished += d.isDisposed() ? 1 : 0;
                d.dispose();
                Files.deleteIfExists(dir.resolve("out.h5ad")); // a run that finished before its cancel wrote it
            }
            cache.clear();
            settle();
        } finally {
            Hooks.resetOnErrorDropped();
        }
        // The input is valid (the warm-up runs read it whole) and the output's writes succeed uncancelled, so an
        // error on either file is the cancel's doing: its interrupt closes the input's channel under a read
        // (ClosedByInterruptException, or ClosedChannelException in a read after it, wrapped by jhdf as an
        // unreadable group or attribute), and its abort closes the output under a write still queued, or refuses to
        // create the output's file when it overtakes the write's open (a CancellationException naming the output).
        Path outputPath = dir.resolve("out.h5ad").toAbsolutePath();
        String output = outputPath.getFileName().toString();
        for (Throwable e : dropped) {
            String message = String.valueOf(e.getMessage());
            assertTrue(
                    message.contains(input.getFileName().toString())
                            || message.startsWith(output + ": ")
                            || (e instanceof CancellationException && message.contains(outputPath.toString())),
                    "an error dropped after a cancel that is not on the run's input or output: " + e);
        }

        System.out.println("cancellation: " + RUNS + " runs, " + finished + " finished before the cancel, "
                + dropped.size() + " reads or writes failed by the cancel, "
                + "open files " + fds + " -> " + openFiles() + ", heap " + heap / 1024 / 1024 + " -> "
                + usedHeapAfterGc() / 1024 / 1024 + " MB");
        String inputPath = input.toRealPath().toString();
        List<String> open = openFileNames();
        for (int i = 0;
                i < 100 && open.stream().anyMatch(f -> f.equals(inputPath) || f.startsWith(dir.toString()));
                i++) {
            Thread.sleep(100); // a cancelled write is closed and deleted on the HDF5 thread, after what it was doing
            open = openFileNames();
        }
        assertTrue(
                open.stream().noneMatch(f -> f.equals(inputPath) || f.startsWith(dir.toString())),
                "a file of the runs is still open 10 s after the last cancel: " + open);
        assertTrue(openFiles() <= fds, "more handles open than before the runs: " + open);
        Set<String> extra = liveThreads();
        extra.removeAll(threads);
        extra.removeIf(t -> POOLS.stream().anyMatch(t::startsWith));
        assertEquals(Set.of(), extra, "threads alive outside the pools");
        assertTrue(usedHeapAfterGc() < heap + (32 << 20), "the heap grew by more than 32 MB");
        Path out = dir.resolve("out.h5ad");
        if (Files.exists(out)) {
            // a run whose commit was under way when its cancel came renamed its complete file after the delete above
            assertEquals(H5ad.read(input).nObs(), H5ad.read(out).nObs(), "an output left is a complete one");
            Files.delete(out);
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.collect(Collectors.toList()), "no temporary file is left");
        }
    }

    /** Waits until cancelled work has stopped: no worker is busy on our files (polls the open files). */
    private static void settle() throws InterruptedException {
        int previous = -1;
        for (int i = 0; i < 50; i++) {
            Thread.sleep(100);
            int now = openFiles();
            if (now == previous) {
                return;
            }
            previous = now;
        }
    }

    private static int openFiles() {
        File[] fds = new File("/proc/self/fd").listFiles();
        return fds == null ? -1 : fds.length;
    }

    private static List<String> openFileNames() throws Exception {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.map(p -> {
                        try {
                            return Files.readSymbolicLink(p).toString();
                        } catch (Exception e) {
                            return "?";
                        }
                    })
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    private static Set<String> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
