/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.ops.parameter.InvalidParameterException;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The graph a step after {@link Neighbors} works on (leiden's clusters, umap's map): the obsp matrix that uns
 * {@code neighbors} (or another key) names as its {@code connectivities_key}, or an obsp matrix named directly, as
 * scanpy's {@code NeighborsView} finds it.
 */
public final class NeighborsGraph {

    private NeighborsGraph() {}

    /**
     * @param data         the container
     * @param neighborsKey the uns key of the neighbors, or null for {@code neighbors}
     * @return the connectivities it names, in memory
     * @throws InvalidParameterException naming {@code neighbors_key} when there are no neighbors or no such matrix
     */
    public static CsrMatrix connectivities(AnnData data, @Nullable String neighborsKey) {
        String neighbors = neighborsKey == null ? "neighbors" : neighborsKey;
        if (!(data.uns().get(neighbors) instanceof Map<?, ?> uns)) {
            throw new InvalidParameterException("neighbors_key", "uns has no '" + neighbors + "': run neighbors first");
        }
        Object named = uns.get("connectivities_key");
        String key = named == null
                ? "connectivities"
                : named instanceof DenseArray d && d.isScalar() ? String.valueOf(d.get(0)) : named.toString();
        return obsp(data, key, "neighbors_key");
    }

    /**
     * @param data      the container
     * @param key       the obsp key
     * @param parameter the parameter that named it, for the error
     * @return that sparse matrix, in memory
     * @throws InvalidParameterException naming {@code parameter} when obsp has no sparse matrix {@code key}
     */
    public static CsrMatrix obsp(AnnData data, String key, String parameter) {
        if (!(data.obsp().get(key) instanceof BlockSource source)) {
            throw new InvalidParameterException(
                    parameter,
                    "obsp has no sparse matrix '" + key + "' (it has: "
                            + data.obsp().keySet() + ")");
        }
        return source instanceof CsrMatrix c
                ? c
                : Objects.requireNonNull(
                        CsrMatrix.collect(source.blocks(), source.nCols()).block(), key);
    }
}
