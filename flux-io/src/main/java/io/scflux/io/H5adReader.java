package io.scflux.io;

import io.scflux.core.anndata.AnnData;
import java.nio.file.Path;

/** Reads the elements of an {@code .h5ad} into an {@link AnnData}; matrices stay in the file. */
final class H5adReader {

    private H5adReader() {
    }

    static AnnData read(Path file) {
        throw new UnsupportedOperationException("H5adReader is being written");
    }
}
