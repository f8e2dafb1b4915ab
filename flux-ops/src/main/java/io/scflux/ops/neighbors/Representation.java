/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.ops.parameter.InvalidParameterException;
import org.jspecify.annotations.Nullable;

/**
 * The cells as points: the first {@code dims} columns of a representation (obsm {@code X_pca}, another obsm entry,
 * or X), row-major float32, read into memory once: 200 MB for a million cells in 50 components.
 *
 * @param nCells the points
 * @param dims   their coordinates
 * @param values row-major, {@code nCells * dims}
 * @param key    where they came from ({@code X_pca}, {@code X}), as scanpy's {@code use_rep} names it
 * @param read   the whole obsm entry, when it was lazy (a projection staged over X) and had to be computed: the
 *               container keeps it, so that no later pass computes it again; else null
 */
record Representation(
        int nCells,
        int dims,
        float[] values,
        String key,
        @Nullable DenseArray read) {

    Representation(int nCells, int dims, float[] values, String key) {
        this(nCells, dims, values, key, null);
    }

    /** scanpy's default representation. */
    static final String PCA = "X_pca";

    /**
     * The representation of {@code data} scanpy's neighbors uses for {@code useRep} and {@code nPcs}.
     *
     * @param data   the container
     * @param useRep an obsm key, {@code X}, or null for {@code X_pca}
     * @param nPcs   the first components to keep, or null for all
     * @return the points
     * @throws InvalidParameterException when the representation is missing or has fewer than {@code nPcs} columns
     */
    static Representation of(AnnData data, @Nullable String useRep, @Nullable Integer nPcs) {
        String key = useRep == null ? PCA : useRep;
        Object entry = key.equals("X") ? data.x() : data.obsm().get(key);
        if (entry == null) {
            throw new InvalidParameterException(
                    "use_rep",
                    (key.equals("X")
                                    ? "the data have no X"
                                    : "obsm has no '" + key + "' (it has: "
                                            + data.obsm().keySet() + ")")
                            + (useRep == null ? ": run pca first, or give use_rep" : ""));
        }
        DenseArray dense =
                entry instanceof DenseArray d ? d : entry instanceof BlockSource s ? DenseArray.materialize(s) : null;
        if (dense == null || dense.ndim() != 2) {
            throw new InvalidParameterException("use_rep", "'" + key + "' is not a cells x components matrix");
        }
        int n = (int) dense.shape()[0];
        int all = (int) dense.shape()[1];
        int dims = nPcs == null ? all : nPcs;
        if (dims > all) {
            throw new InvalidParameterException(
                    "n_pcs", "is " + dims + ", but '" + key + "' has " + all + " components");
        }
        float[] out = new float[n * dims];
        if (dense.dtype() == DType.FLOAT32 && dims == all) {
            System.arraycopy((float[]) dense.data(), 0, out, 0, out.length);
        } else {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < dims; j++) {
                    out[i * dims + j] = (float) dense.getDouble(i * all + j);
                }
            }
        }
        return new Representation(n, dims, out, key, entry instanceof BlockSource && !key.equals("X") ? dense : null);
    }
}
