package io.scflux.io;

import io.scflux.core.anndata.AnnData;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes an {@link AnnData} as {@code .h5ad} through the HDF5 reference library, atomically: annotations first, then
 * every matrix streamed block by block, all into a temporary file that is renamed onto the target when complete.
 */
final class H5adWriter {

    private H5adWriter() {
    }

    static Mono<Void> write(AnnData data, Path target, WriteOptions options) {
        return write(data, target, options, CsrWriter.INT32_LIMIT);
    }

    /**
     * As {@link #write(AnnData, Path, WriteOptions)}, matrix indices int64 when the entries or a dimension pass
     * {@code indexLimit}.
     */
    static Mono<Void> write(AnnData data, Path target, WriteOptions options, long indexLimit) {
        return write(data, target, options, indexLimit, DiskSpace::of);
    }

    /** As {@link #write(AnnData, Path, WriteOptions, long)}, the room for the file measured by {@code space}. */
    static Mono<Void> write(AnnData data, Path target, WriteOptions options, long indexLimit,
                            Function<Path, DiskSpace> space) {
        Objects.requireNonNull(data, "data");
        return atomically(target, options, space, List.of(file -> new ElementWriter(file).anndata(data),
                file -> {
                    new ElementWriter(file).anndataFrames(data);
                    return List.of();
                }), (file, m) -> MatrixWriter.write(file, m, options, indexLimit));
    }

    /**
     * The atomic write every file format shares: on the HDF5 thread {@code annotations} writes what is held in
     * memory into the new file and lists the matrices, which {@code matrices} then streams one after another; the
     * file is renamed onto {@code target} when all are written, deleted on error or cancel.
     */
    static Mono<Void> atomically(Path target, WriteOptions options,
                                 Function<NativeHdf5, List<ElementWriter.Matrix>> annotations,
                                 BiFunction<NativeHdf5, ElementWriter.Matrix, Mono<Void>> matrices) {
        return atomically(target, options, DiskSpace::of, List.of(annotations), matrices);
    }

    /**
     * Writes {@code target} in {@code parts}, each writing its elements on the HDF5 thread and listing the matrices
     * streamed before the next part.
     */
    private static Mono<Void> atomically(Path target, WriteOptions options, Function<Path, DiskSpace> space,
                                         List<Function<NativeHdf5, List<ElementWriter.Matrix>>> parts,
                                         BiFunction<NativeHdf5, ElementWriter.Matrix, Mono<Void>> matrices) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(options, "options");
        return Mono.defer(() -> {
            AtomicOutput out = new AtomicOutput(target);
            return Mono.fromCallable(() -> out.open(options, space))
                    .subscribeOn(NativeHdf5.THREAD)
                    .flatMapMany(file -> Flux.fromIterable(parts)
                            .concatMap(part -> Mono.fromCallable(() -> part.apply(file))
                                    .subscribeOn(NativeHdf5.THREAD)
                                    .flatMapMany(Flux::fromIterable)
                                    .concatMap(m -> matrices.apply(file, m))))
                    .then(onHdf5Thread(out, AtomicOutput::commit))
                    .onErrorResume(e -> onHdf5Thread(out, o -> o.abort(e)).then(Mono.error(e)))
                    // a cancel at any moment, even one that overtakes the open: the abort is queued on the HDF5
                    // thread behind whatever runs there, and an open it overtakes refuses to create the file
                    .doOnCancel(() -> NativeHdf5.THREAD.schedule(() -> out.abort(
                            new CancellationException("write of " + target + " cancelled"))));
        });
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
}
