package io.scflux.io;

import io.scflux.core.anndata.AnnData;
import java.nio.file.Path;
import reactor.core.publisher.Mono;

/**
 * Reads and writes AnnData's {@code .h5ad} files. Reading loads the annotations (obs, var, obsm, varm, uns...) and
 * leaves every matrix (X, layers, raw/X) in the file as a {@link FileMatrix} streamed in row blocks; writing goes to a
 * temporary name beside the target, streams matrices block by block, and renames into place only when complete.
 */
public final class H5ad {

    private H5ad() {
    }

    /** The container of {@code file}: annotations in memory, matrices backed by the file. */
    public static AnnData read(Path file) {
        return H5adReader.read(file);
    }

    /** One matrix element ({@code /X}, {@code /layers/counts}, {@code /raw/X}...) of {@code file}. */
    public static FileMatrix openMatrix(Path file, String element) {
        return FileMatrices.open(file, element);
    }

    /** Writes {@code data} to {@code target} with default options; see {@link #write(AnnData, Path, WriteOptions)}. */
    public static Mono<Void> write(AnnData data, Path target) {
        return write(data, target, WriteOptions.DEFAULT);
    }

    /**
     * Writes {@code data} to {@code target} on subscription. Matrices stream in bounded memory; the target appears
     * only when the file is complete. An error, or a cancellation before the last block is written, leaves neither
     * the target nor a temporary file; a cancellation that arrives once the commit (close, sync, rename) has begun
     * lets it finish, so the target is then complete.
     */
    public static Mono<Void> write(AnnData data, Path target, WriteOptions options) {
        return H5adWriter.write(data, target, options);
    }
}
