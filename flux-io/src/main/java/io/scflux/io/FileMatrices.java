package io.scflux.io;

import io.jhdf.HdfFile;
import io.jhdf.api.Node;
import java.nio.file.Path;

/** Opens the matrix elements of an {@code .h5ad} (CSR, CSC, dense) as {@link FileMatrix} sources. */
final class FileMatrices {

    private FileMatrices() {
    }

    /** The matrix at {@code element} of {@code file}. */
    static FileMatrix open(Path file, String element) {
        try (HdfFile hdf = new HdfFile(file)) {
            return open(file, hdf.getByPath(element));
        }
    }

    /**
     * The matrix stored at {@code node} (a {@code csr_matrix}/{@code csc_matrix} group or a 2-D dataset) of an
     * open file. The returned matrix does not keep {@code node}'s file open: each reader opens its own handle.
     */
    static FileMatrix open(Path file, Node node) {
        throw new UnsupportedOperationException("FileMatrices is being written");
    }
}
