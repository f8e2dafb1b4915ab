/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockSource;
import io.scflux.io.hdf5.ReadStats;
import java.nio.file.Path;

/**
 * A matrix element of an {@code .h5ad} file (X, a layer, raw/X, a sparse obsm/obsp entry) read in row blocks
 * straight from the file. Each subscription opens its own handle; {@link #stats()} counts what was read.
 */
public interface FileMatrix extends BlockSource {

    Path file();

    /** The HDF5 path of the element, e.g. {@code /X} or {@code /layers/counts}. */
    String element();

    /** How the element is stored: encoding, dtype, nnz, index types, compression. */
    MatrixInfo info();

    /** Bytes and blocks read from the file by every reader of this matrix so far. */
    ReadStats stats();
}
