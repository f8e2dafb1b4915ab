package io.scflux.io;

import io.scflux.core.anndata.AnnData;
import java.nio.file.Path;
import reactor.core.publisher.Mono;

/** Writes an {@link AnnData} as {@code .h5ad} through the HDF5 reference library, atomically. */
final class H5adWriter {

    private H5adWriter() {
    }

    static Mono<Void> write(AnnData data, Path target, WriteOptions options) {
        return Mono.error(new UnsupportedOperationException("H5adWriter is being written"));
    }
}
