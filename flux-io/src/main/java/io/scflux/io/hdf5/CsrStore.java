/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.scflux.io.safety.FileStamp;
import java.nio.file.Path;

/**
 * CSR arrays and the file they live in, stamped so a changed file is noticed: where a sparse matrix reads its rows
 * from, the h5ad file itself or the transposed copy of a CSC matrix.
 *
 * @param file the HDF5 file holding the arrays
 * @param stamp the file's stamp when the arrays were found
 * @param arrays the three arrays of the matrix in that file
 */
public record CsrStore(Path file, FileStamp stamp, CsrArrays arrays) {}
