/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DerivedSource;
import io.scflux.core.Engine;
import io.scflux.core.Execution;
import io.scflux.core.Reducer;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.io.safety.FileGuard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.spark.TaskContext;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Writes an AnnData whose matrices are computed as they are read (a normalized view as X, an embedding projected from
 * X) with the computing done by Spark: each task reads its run of blocks of such a matrix and writes them to a part
 * file in a temporary folder beside the target (which every executor must see); the driver then streams the parts in
 * block order through {@link H5ad#write}, which writes the file under a temporary name and renames it into place.
 * The folder is removed afterwards, whatever happened. Matrices already stored (a file's, or in memory) are written
 * by the driver as they are.
 */
public final class SparkWriter {

    private SparkWriter() {}

    /**
     * Writes {@code data} to {@code target} on subscription, computing its derived matrices on {@code engine};
     * refused before any task runs where {@link H5ad#write} refuses ({@link FileGuard}: {@code target} a file
     * {@code data} reads, a folder, a FIFO or a device).
     *
     * @param data the container to write
     * @param target the file to write
     * @param options compression, plan and execution
     * @param engine where the derived matrices are computed
     * @return a cold Mono that writes on subscription
     */
    public static Mono<Void> write(AnnData data, Path target, WriteOptions options, SparkEngine engine) {
        return Mono.fromRunnable(() -> FileGuard.checkTarget(target, data.files()))
                .then(write(data, target, options, engine, H5ad::write));
    }

    /**
     * Rewrites {@code file}, which {@code data} may read, as {@link H5ad#writeInPlace} does, computing its derived
     * matrices on {@code engine}.
     *
     * @param data the container to write
     * @param file the file to rewrite
     * @param options compression, plan and execution
     * @param engine where the derived matrices are computed
     * @return a cold Mono that rewrites on subscription
     */
    public static Mono<Void> writeInPlace(AnnData data, Path file, WriteOptions options, SparkEngine engine) {
        return write(data, file, options, engine, H5ad::writeInPlace);
    }

    /** {@code data}'s derived matrices computed into parts beside {@code target}, then written by {@code writer}. */
    private static Mono<Void> write(
            AnnData data, Path target, WriteOptions options, SparkEngine engine, Writer writer) {
        return Mono.usingWhen(
                Mono.fromCallable(() -> Files.createTempDirectory(
                                target.toAbsolutePath().getParent(), "." + target.getFileName() + ".parts-"))
                        .subscribeOn(Schedulers.boundedElastic()),
                folder -> Mono.fromCallable(() -> withParts(data, folder, options, engine))
                        .subscribeOn(Schedulers.boundedElastic())
                        .flatMap(parts -> writer.write(parts, target, options)),
                folder -> Mono.fromRunnable(() -> delete(folder)).subscribeOn(Schedulers.boundedElastic()));
    }

    /** {@link H5ad#write} or {@link H5ad#writeInPlace}. */
    @FunctionalInterface
    private interface Writer {
        Mono<Void> write(AnnData data, Path target, WriteOptions options);
    }

    /** A shallow copy of {@code data} whose computed matrices are read from parts Spark wrote to {@code folder}. */
    private static AnnData withParts(AnnData data, Path folder, WriteOptions options, SparkEngine engine) {
        int[] matrix = {0};
        AnnData out = new AnnData(
                data.x() == null ? null : parts(data.x(), "X", folder, options, engine), data.obs(), data.var());
        for (Map.Entry<String, BlockSource> e : data.layers().entrySet()) {
            out.putLayer(e.getKey(), parts(e.getValue(), "layer" + matrix[0]++, folder, options, engine));
        }
        for (Map.Entry<String, Object> e : data.obsm().entrySet()) {
            out.putObsm(
                    e.getKey(),
                    e.getValue() instanceof BlockSource s
                            ? parts(s, "obsm" + matrix[0]++, folder, options, engine)
                            : e.getValue());
        }
        data.varm().forEach(out::putVarm);
        data.obsp().forEach(out::putObsp);
        data.varp().forEach(out::putVarp);
        out.uns().putAll(data.uns());
        out.setRaw(data.raw());
        out.setPending(data.pending());
        return out;
    }

    /** {@code source} itself when it is stored; when it is computed, its blocks computed by tasks into parts. */
    private static BlockSource parts(
            BlockSource source, String name, Path folder, WriteOptions options, SparkEngine engine) {
        if (!(source instanceof DerivedSource)) {
            return source;
        }
        BlockPlan plan = source.plan(options.plan());
        List<int[]> ranges = Reducer.runs(plan.size());
        String dir = folder.toString();
        List<Engine.Task<long[]>> tasks = new ArrayList<>();
        for (int t = 0; t < ranges.size(); t++) {
            int task = t;
            int[] range = ranges.get(t);
            tasks.add(() -> {
                TaskContext c = TaskContext.get();
                String attempt = c == null ? "driver" : c.stageId() + "." + c.taskAttemptId();
                return PartFiles.write(source, plan, range, PartFiles.part(Path.of(dir), name, task), attempt);
            });
        }
        List<long[]> offsets =
                Objects.requireNonNull(engine.run(tasks, Execution.sequential()).block(), "offsets");
        Path[] parts = new Path[ranges.size()];
        int[] partOf = new int[plan.size()];
        long[] at = new long[plan.size()];
        for (int t = 0; t < ranges.size(); t++) {
            parts[t] = PartFiles.part(folder, name, t);
            int[] range = ranges.get(t);
            for (int b = range[0]; b < range[1]; b++) {
                partOf[b] = t;
                at[b] = offsets.get(t)[b - range[0]];
            }
        }
        return new PartSource(source, plan, parts, partOf, at);
    }

    private static void delete(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("removing the parts in " + folder, e);
        }
    }
}
