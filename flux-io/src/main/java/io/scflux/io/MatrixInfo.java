/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.DType;
import org.jspecify.annotations.Nullable;

/**
 * How a matrix element is stored on disk, as {@code scflux info} reports it.
 *
 * @param encoding     {@code csr_matrix}, {@code csc_matrix} or {@code array} (dense)
 * @param dtype        type of the stored values
 * @param nRows        rows (cells)
 * @param nCols        columns (genes)
 * @param nnz          stored entries (for dense: rows times columns)
 * @param indptrDtype  type of indptr (null for dense)
 * @param indicesDtype type of indices (null for dense)
 * @param compression  filters of the value dataset: {@code none}, {@code gzip}, {@code lzf}, {@code gzip+shuffle}...
 * @param chunked      whether the value dataset is chunked (otherwise contiguous or compact)
 */
public record MatrixInfo(
        String encoding,
        DType dtype,
        long nRows,
        int nCols,
        long nnz,
        @Nullable DType indptrDtype,
        @Nullable DType indicesDtype,
        String compression,
        boolean chunked) {

    /** @return whether the value dataset has a filter ({@code compression} is not {@code none}) */
    public boolean compressed() {
        return !"none".equals(compression);
    }
}
