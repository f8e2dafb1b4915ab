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
 * {@code X_pca} (or {@code use_rep}), then obsp {@code distances} (as scanpy stores them on the path it takes:
 * {@link #distances}), obsp {@code connectivities} (UMAP's fuzzy union, or the Gaussian kernel; float32 CSR) and
 * uns {@code neighbors} with scanpy's keys and params. X is not read. The search is exact where scanpy's is (brute
 * force, euclidean, below 8,192 cells), else approximate ({@link DescentKnn}); both give the same bits on any thread
 * count.
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
                    if (points.read() != null) {
                        data.putObsm(points.key(), points.read());
                    }
                    boolean exact = exact(points.nCells(), options.metric());
                    Mono<KnnLists> search = exact
                            ? ExactKnn.search(points, options.nNeighbors(), options.metric(), streaming.execution())
                            : DescentKnn.search(
                                    points,
                                    options.nNeighbors(),
                                    options.metric(),
                                    options.randomState(),
                                    streaming.execution());
                    return search.map(knn -> {
                        data.putObsp(options.distancesKey(), distances(knn, exact));
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

    /** Cells below which scanpy computes the kNN exactly (its brute force on dense distances, euclidean only). */
    public static final int EXACT_BELOW = 8_192;

    /**
     * @param cells  the cells
     * @param metric the distance
     * @return whether scanpy takes its exact path: euclidean below {@link #EXACT_BELOW} cells
     */
    static boolean exact(int cells, NeighborsOptions.Metric metric) {
        return metric == NeighborsOptions.Metric.EUCLIDEAN && cells < EXACT_BELOW;
    }

    /**
     * The lists as scanpy stores them: on its exact path each cell's others, nearest first, float64 (the cell itself
     * not stored); on its approximate path the cell itself first, an explicit 0, then its others, float32.
     */
    static CsrMatrix distances(KnnLists knn, boolean exact) {
        int k = knn.k();
        int skip = exact ? 1 : 0;
        CsrMatrix.Builder out = CsrMatrix.builder(knn.nCells()).dtype(exact ? DType.FLOAT64 : DType.FLOAT32);
        for (int i = 0; i < knn.nCells(); i++) {
            int from = i * k + skip;
            out.addRow(
                    Arrays.copyOfRange(knn.indices(), from, i * k + k),
                    Arrays.copyOfRange(knn.distances(), from, i * k + k));
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
