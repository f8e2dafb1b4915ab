/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.core.DType;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code sc.pp.neighbors}: each cell's {@code n_neighbors} nearest cells (itself included) in obsm
 * {@code X_pca} (or {@code use_rep}), then obsp {@code distances} (each cell's others, nearest first, as scanpy's
 * exact path stores them: float64 CSR, the cell itself not stored), obsp {@code connectivities} (UMAP's fuzzy union,
 * or the Gaussian kernel; float32 CSR) and uns {@code neighbors} with scanpy's keys and params. X is not read.
 */
public final class Neighbors {

    private Neighbors() {}

    /**
     * @param input     the container, left as it is
     * @param options   scanpy's parameters
     * @param streaming the workers the search runs on (the result does not depend on how many)
     * @return a cold Mono of a new container with the graph
     */
    public static Mono<AnnData> neighbors(AnnData input, NeighborsOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData data = input.copy();
                    Representation points = Representation.of(data, options.useRep(), options.nPcs());
                    return ExactKnn.search(points, options.nNeighbors(), options.metric(), streaming.execution())
                            .map(knn -> {
                                data.putObsp(options.distancesKey(), distances(knn));
                                data.putObsp(
                                        options.connectivitiesKey(),
                                        options.method() == NeighborsOptions.Method.UMAP
                                                ? FuzzyUnion.of(knn)
                                                : GaussKernel.of(knn));
                                data.uns().put(options.unsKey(), uns(options, points.key()));
                                return data;
                            });
                })
                .contextWrite(Pass.named("neighbors"));
    }

    /** Each cell's others, nearest first: scanpy's exact path's {@code distances}. */
    static CsrMatrix distances(KnnLists knn) {
        int k = knn.k();
        CsrMatrix.Builder out = CsrMatrix.builder(knn.nCells()).dtype(DType.FLOAT64);
        for (int i = 0; i < knn.nCells(); i++) {
            int from = i * k + 1;
            out.addRow(
                    Arrays.copyOfRange(knn.indices(), from, from + k - 1),
                    Arrays.copyOfRange(knn.distances(), from, from + k - 1));
        }
        return out.build();
    }

    private static Map<String, Object> uns(NeighborsOptions options, String useRep) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("n_neighbors", (long) options.nNeighbors());
        params.put("method", options.method().scanpyName());
        params.put("random_state", (long) options.randomState());
        params.put("metric", options.metric().scanpyName());
        params.put("use_rep", useRep);
        if (options.nPcs() != null) {
            params.put("n_pcs", (long) options.nPcs());
        }
        Map<String, Object> uns = new LinkedHashMap<>();
        uns.put("connectivities_key", options.connectivitiesKey());
        uns.put("distances_key", options.distancesKey());
        uns.put("params", params);
        return uns;
    }
}
