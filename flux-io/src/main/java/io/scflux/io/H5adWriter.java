/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.DType;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.safety.FileGuard;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes an {@link AnnData} as {@code .h5ad} through the HDF5 reference library, atomically: annotations first, then
 * every matrix streamed block by block, all into a temporary file that is renamed onto the target when complete.
 */
final class H5adWriter {

    private H5adWriter() {}

    static Mono<Void> write(AnnData data, Path target, WriteOptions options) {
        return write(data, target, options, WriteLayout.INT32_LIMIT);
    }

    /**
     * As {@link #write(AnnData, Path, WriteOptions)}, matrix indices int64 when the entries or a dimension pass
     * {@code indexLimit}.
     */
    static Mono<Void> write(AnnData data, Path target, WriteOptions options, long indexLimit) {
        return write(data, target, options, indexLimit, DiskSpace::of);
    }

    /** As {@link #write(AnnData, Path, WriteOptions, long)}, the room for the file measured by {@code space}. */
    static Mono<Void> write(
            AnnData data, Path target, WriteOptions options, long indexLimit, Function<Path, DiskSpace> space) {
        return write(data, target, false, options, indexLimit, space);
    }

    /**
     * Rewrites {@code file} with {@code data}, which may read it: see {@link H5ad#writeInPlace}. The file a symbolic
     * link names is rewritten.
     */
    static Mono<Void> writeInPlace(AnnData data, Path file, WriteOptions options) {
        Objects.requireNonNull(file, "file");
        return Mono.defer(() -> write(
                data,
                FileGuard.inPlaceTarget(file, options.settings()),
                true,
                options,
                WriteLayout.INT32_LIMIT,
                DiskSpace::of));
    }

    private static Mono<Void> write(
            AnnData data,
            Path target,
            boolean inPlace,
            WriteOptions options,
            long indexLimit,
            Function<Path, DiskSpace> space) {
        Objects.requireNonNull(data, "data");
        return atomically(
                data,
                target,
                inPlace,
                options,
                space,
                () -> OutputSize.of(data, options),
                List.of(
                        file -> Mono.fromCallable(() -> new ElementWriter(file).anndata(data))
                                .subscribeOn(NativeHdf5.THREAD),
                        // after X: the columns its read made, pending until then, are put first
                        file -> data.complete().publishOn(NativeHdf5.THREAD).map(complete -> {
                            new ElementWriter(file).anndataFrames(complete);
                            return List.of();
                        })),
                (file, m) -> writeMatrix(file, m, options, indexLimit));
    }

    /**
     * The atomic write every file format shares: on the HDF5 thread {@code annotations} writes what is held in
     * memory of {@code data} into the new file and lists the matrices, which {@code matrices} then streams one after
     * another; the file is renamed onto {@code target} when all are written, deleted on error or cancel. Refused
     * before anything is written when {@code target} is not a file to write or is a file {@code data} reads
     * ({@link FileGuard}).
     */
    static Mono<Void> atomically(
            AnnData data,
            Path target,
            WriteOptions options,
            Function<NativeHdf5, List<ElementWriter.Matrix>> annotations,
            BiFunction<NativeHdf5, ElementWriter.Matrix, Mono<Void>> matrices) {
        return atomically(
                data,
                target,
                false,
                options,
                DiskSpace::of,
                () -> OutputSize.Estimate.UNKNOWN,
                List.of(file -> Mono.fromCallable(() -> annotations.apply(file)).subscribeOn(NativeHdf5.THREAD)),
                matrices);
    }

    /**
     * Writes {@code target} in {@code parts}, each writing its elements on the HDF5 thread and listing the matrices
     * streamed before the next part begins. {@code inPlace}: {@code target} may be a file {@code data} reads; the new file
     * takes its permissions, owner and group, and is renamed onto it only while no other process holds it open for
     * writing. {@code size} estimates the file, off the HDF5 thread (it may read plans and sample blocks), checked
     * against the free space before the file is created.
     */
    private static Mono<Void> atomically(
            AnnData data,
            Path target,
            boolean inPlace,
            WriteOptions options,
            Function<Path, DiskSpace> space,
            Supplier<OutputSize.Estimate> size,
            List<Function<NativeHdf5, Mono<List<ElementWriter.Matrix>>>> parts,
            BiFunction<NativeHdf5, ElementWriter.Matrix, Mono<Void>> matrices) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        return Mono.defer(() -> {
            if (!inPlace) {
                FileGuard.checkTarget(target, data.files());
            }
            AtomicOutput out = new AtomicOutput(target);
            return Mono.fromCallable(size::get)
                    .subscribeOn(options.execution().scheduler())
                    .publishOn(NativeHdf5.THREAD)
                    .map(estimate -> open(out, options, space, estimate, inPlace ? target : null))
                    .flatMapMany(file -> Flux.fromIterable(parts)
                            .concatMap(part -> part.apply(file)
                                    .flatMapMany(Flux::fromIterable)
                                    .concatMap(m -> matrices.apply(file, m))))
                    .then(onHdf5Thread(out, o -> {
                        if (inPlace) {
                            FileGuard.checkNotLocked(
                                    target, options.settings()); // whoever opened it for writing meanwhile keeps it
                        }
                        o.commit();
                    }))
                    .onErrorResume(e -> onHdf5Thread(out, o -> o.abort(e)).then(Mono.error(e)))
                    // a cancel at any moment, even one that overtakes the open: the abort is queued on the HDF5
                    // thread behind whatever runs there, and an open it overtakes refuses to create the file
                    .doOnCancel(() -> NativeHdf5.THREAD.schedule(
                            () -> out.abort(new CancellationException("write of " + target + " cancelled"))));
        });
    }

    /** {@code out} opened; its file given the permissions, owner and group of {@code keep} unless that is null. */
    private static NativeHdf5 open(
            AtomicOutput out,
            WriteOptions options,
            Function<Path, DiskSpace> space,
            OutputSize.Estimate size,
            @Nullable Path keep) {
        NativeHdf5 file = out.open(options, space, size);
        if (keep != null) {
            FileGuard.keepAttributes(keep, out.temporary());
        }
        return file;
    }

    /**
     * Runs {@code action} on the HDF5 thread after whatever is queued there (a block being written), and runs it
     * even if the returned Mono is cancelled: commit and abort must not be skipped.
     */
    private static Mono<Void> onHdf5Thread(AtomicOutput out, Consumer<AtomicOutput> action) {
        return Mono.create(sink -> NativeHdf5.THREAD.schedule(() -> {
            try {
                action.accept(out);
                sink.success();
            } catch (RuntimeException e) {
                sink.error(e);
            }
        }));
    }

    /**
     * Writes {@code matrix} (and its companions) from its blocks: the plan is computed off the HDF5 thread (it may
     * read a whole indptr or generate every row's count), blocks are decoded on the options' execution, and written in
     * order on the HDF5 thread, at most {@link MatrixWriter#PREFETCH} waiting; blocks resident on a device are downloaded as they
     * are read. {@code indexLimit} is {@link WriteLayout#INT32_LIMIT} except in tests.
     */
    private static Mono<Void> writeMatrix(
            NativeHdf5 file, ElementWriter.Matrix matrix, WriteOptions options, long indexLimit) {
        DType storedAs = matrix.source().dtype();
        return MatrixWriter.write(
                matrix,
                b -> ValueRange.requireHeld(storedAs, b, matrix.path()),
                options,
                (m, plan) -> MatrixWriter.isDense(m.source())
                        ? new DenseWriter(file, m, plan)
                        : new CsrWriter(file, m, plan, indexLimit));
    }
}
