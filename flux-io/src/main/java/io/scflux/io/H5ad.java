/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.Pass;
import io.scflux.core.Settings;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.transposed.TransposedStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Reads and writes AnnData's {@code .h5ad} files. Reading loads the annotations (obs, var, obsm, varm, uns...) and
 * leaves every matrix (X, layers, raw/X) in the file as a {@link FileMatrix} streamed in row blocks; writing goes to a
 * temporary name beside the target, streams matrices block by block, and renames into place only when complete.
 * Reading also takes 10x Genomics' Cell Ranger {@code .h5} (feature-barcode matrix), as scanpy's {@code read_10x_h5}.
 */
public final class H5ad {

    private H5ad() {}

    /**
     * The container of {@code file}, read on subscription on a bounded-elastic worker (reading obs and var is I/O, so
     * a reactive service never does it on an event-loop thread); see {@link #read(Path)}. Cold: each subscription
     * reads the file again.
     */
    public static Mono<AnnData> open(Path file) {
        return open(file, CellRangerOptions.defaults());
    }

    /** As {@link #open(Path)}, a Cell Ranger file read with {@code cellRanger}. */
    public static Mono<AnnData> open(Path file, CellRangerOptions cellRanger) {
        return open(file, cellRanger, Settings.DEFAULT);
    }

    /**
     * As {@link #open(Path, CellRangerOptions)}, under the settings an edge read ({@link Streaming#settings}): the
     * cache folder and room of a CSC matrix's row-major copy, and whether another process's write lock is honoured.
     *
     * @param file the {@code .h5ad} or Cell Ranger {@code .h5}
     * @param cellRanger how a Cell Ranger file is read
     * @param settings the run's settings
     * @return the container, read on subscription
     */
    public static Mono<AnnData> open(Path file, CellRangerOptions cellRanger, Settings settings) {
        return Mono.fromCallable(() -> read(file, cellRanger, settings)).subscribeOn(Schedulers.boundedElastic());
    }

    /**
     * The container of {@code file}: annotations in memory, matrices backed by the file. Blocking (it reads obs and
     * var): for scripts; a reactive caller uses {@link #open(Path)}. A Cell Ranger file is read with scanpy's defaults
     * (see {@link #read(Path, CellRangerOptions)}).
     */
    public static AnnData read(Path file) {
        return read(file, CellRangerOptions.defaults());
    }

    /**
     * As {@link #read(Path)}; a Cell Ranger {@code .h5} ({@code /matrix} of Cell Ranger 3+, or a genome group of
     * Cell Ranger 2) is read as {@code sc.read_10x_h5(file, genome, gex_only)} followed by
     * {@code var_names_make_unique()}: obs named by the barcodes, var by the feature names with {@code gene_ids},
     * {@code feature_types} and {@code genome}, and X the counts (int32 declared float32), streamed from the file.
     * Refused while another process holds {@code file} open for writing, as h5py refuses it
     * ({@link io.scflux.io.safety.FileGuard}).
     */
    public static AnnData read(Path file, CellRangerOptions cellRanger) {
        return read(file, cellRanger, Settings.DEFAULT);
    }

    /**
     * As {@link #read(Path, CellRangerOptions)}, under the settings an edge read ({@link Streaming#settings}).
     *
     * @param file the {@code .h5ad} or Cell Ranger {@code .h5}
     * @param cellRanger how a Cell Ranger file is read
     * @param settings the run's settings
     * @return the container
     */
    public static AnnData read(Path file, CellRangerOptions cellRanger, Settings settings) {
        return H5adReader.read(file, cellRanger, settings);
    }

    /** True when {@code file} is a Cell Ranger feature-barcode matrix ({@code .h5}) rather than an {@code .h5ad}. */
    public static boolean isCellRanger(Path file) {
        return H5adReader.isCellRanger(file);
    }

    /**
     * The row-major copies scflux makes of CSC matrices to read them by rows, in the cache folder
     * {@link Settings#cacheDir} (created owner-only and refused when others may write it: see
     * {@link io.scflux.core.TemporaryFiles#openScratchDir}), for a user to list or remove. A copy is replaced when its
     * source changes and checked against its checksums as it is read; making one first removes the least recently
     * used ones past {@link Settings#cacheMaxBytes}.
     *
     * @param settings the cache folder's settings
     * @return the copies' paths, by name (none when the folder does not exist)
     * @throws IOException when the folder cannot be listed
     */
    public static List<Path> transposedStores(Settings settings) throws IOException {
        return TransposedStore.stores(settings.cacheDir());
    }

    /** One matrix element ({@code /X}, {@code /layers/counts}, {@code /raw/X}...) of {@code file}. */
    public static FileMatrix openMatrix(Path file, String element) {
        return openMatrix(file, element, Settings.DEFAULT);
    }

    /**
     * As {@link #openMatrix(Path, String)}, under the settings an edge read.
     *
     * @param file the file
     * @param element the matrix's HDF5 path
     * @param settings the run's settings
     * @return the matrix, read by blocks from the file
     */
    public static FileMatrix openMatrix(Path file, String element, Settings settings) {
        return FileMatrices.open(file, element, settings);
    }

    /** Writes {@code data} to {@code target} with default options; see {@link #write(AnnData, Path, WriteOptions)}. */
    public static Mono<Void> write(AnnData data, Path target) {
        return write(data, target, WriteOptions.DEFAULT);
    }

    /**
     * Writes {@code data} to {@code target} on subscription. Matrices stream in bounded memory; the target appears
     * only when the file is complete. An error, or a cancellation before the last block is written, leaves neither
     * the target nor a temporary file; a cancellation that arrives once the commit (close, sync, rename) has begun
     * lets it finish, so the target is then complete. Its passes over the matrices are named {@code write}
     * ({@link Pass}).
     *
     * <p>Refused (an {@link IllegalArgumentException} naming both files, before anything is written) when
     * {@code target} is a file {@code data} reads ({@link AnnData#files()}: X's, a layer's, raw's, the counts of a
     * normalized view, the inputs of a subset or concatenation) under any spelling, a symbolic or hard link
     * included: that is {@link #writeInPlace}. Refused too when {@code target} is a folder, a FIFO or a device
     * ({@link io.scflux.io.safety.FileGuard#checkOutput}).
     *
     * @param data the container to write
     * @param target the file to write: a regular file or a new name
     * @param options compression, plan and execution
     * @return a cold Mono that writes on subscription
     */
    public static Mono<Void> write(AnnData data, Path target, WriteOptions options) {
        return H5adWriter.write(data, target, options).contextWrite(Pass.named("write"));
    }

    /**
     * The bytes {@link #write(AnnData, Path, WriteOptions)} of {@code data} will take, about: the estimate every
     * write checks against the free space before it creates its file, at or a little above what it writes (within
     * 1.2 times on real data; above it where a selection may drop entries). Reads the plans of the matrices (as the
     * write does) and, with gzip, a few blocks of each to measure what deflate makes of them. Blocking.
     *
     * @param data the container to write
     * @param options compression and plan, as the write will use them
     * @return the estimate in bytes
     */
    public static long outputBytes(AnnData data, WriteOptions options) {
        return OutputSize.of(data, options).bytes();
    }

    /**
     * Rewrites {@code file} with {@code data}, which may read it (the result of a step over {@code file}'s own
     * container), as {@link #write(AnnData, Path, WriteOptions)} writes: into a temporary copy beside it, renamed onto
     * it once complete, so an error or a cancel leaves {@code file} as it was. The rewritten file keeps its
     * permissions, and its owner and group where this process may set them; through a symbolic link, the file it
     * names is rewritten. Refused while another process holds {@code file} open for writing (an HDF5 lock, as h5py's
     * {@code "r+"} takes; {@link io.scflux.io.safety.FileGuard}), checked before the write and again before the rename.
     *
     * @param data the container to write
     * @param file the existing regular file to rewrite
     * @param options compression, plan and execution
     * @return a cold Mono that rewrites on subscription
     */
    public static Mono<Void> writeInPlace(AnnData data, Path file, WriteOptions options) {
        return H5adWriter.writeInPlace(data, file, options).contextWrite(Pass.named("write"));
    }

    /**
     * Writes the counts of {@code counts} (X of whole non-negative numbers, obs names as barcodes, var names and
     * {@code gene_ids}/{@code feature_types}/{@code genome} as features) to {@code target} in Cell Ranger 3's HDF5
     * feature-barcode layout, on subscription and atomically as {@link #write(AnnData, Path, WriteOptions)}: what
     * {@code sc.read_10x_h5} and {@link #read(Path, CellRangerOptions)} read. Refused, before anything is written,
     * where {@link #write(AnnData, Path, WriteOptions)} refuses: {@code target} a file {@code counts} reads (its own
     * Cell Ranger input included), a folder, a FIFO or a device.
     *
     * @param counts the container whose X holds the counts
     * @param target the file to write: a regular file or a new name
     * @param options compression, plan and execution
     * @return a cold Mono that writes on subscription
     */
    public static Mono<Void> writeCellRanger(AnnData counts, Path target, WriteOptions options) {
        return Mono.defer(() -> CellRangerWriter.write(counts, target, options)).contextWrite(Pass.named("write"));
    }
}
