/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;

/** Test access to embeddings: scflux's {@code obsm["X_pca"]} is lazy, a file's is read whole. */
public final class Embeddings {

    private Embeddings() {}

    /** {@code obsm["X_pca"]} in memory. */
    public static DenseArray xPca(AnnData a) {
        Object x = a.obsm().get("X_pca");
        return x instanceof DenseArray d ? d : DenseArray.materialize((BlockSource) x);
    }
}
