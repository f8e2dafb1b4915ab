/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.BlockSource;
import io.scflux.core.test.BlockSourceContract;
import io.scflux.core.test.Matrices;

/** An in-memory CSR matrix streams back exactly what it holds, with pages smaller than a block. */
class CsrMatrixContractTest extends BlockSourceContract {

    private static final CsrMatrix DATA = Matrices.random(300, 50, 0.1, 7);

    @Override
    protected BlockSource source() {
        CsrMatrix.Builder paged = CsrMatrix.builder(DATA.nCols(), 6);
        return paged.add(DATA.open().read(0, 0, DATA.nRows())).build();
    }

    @Override
    protected CsrMatrix expected() {
        return DATA;
    }
}
