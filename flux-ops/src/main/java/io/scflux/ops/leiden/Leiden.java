/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.leiden;

import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.ops.neighbors.NeighborsGraph;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import nl.cwts.networkanalysis.Clustering;
import nl.cwts.networkanalysis.LeidenAlgorithm;
import nl.cwts.networkanalysis.Network;
import nl.cwts.util.LargeDoubleArray;
import nl.cwts.util.LargeIntArray;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code sc.tl.leiden} with {@code flavor="igraph"}'s semantics: Leiden's algorithm maximizing modularity
 * (with {@code resolution}) on the neighbors' connectivities as edge weights, undirected, {@code n_iterations}
 * iterations with randomness 0.01 (igraph's {@code beta}), from singletons. obs {@code leiden}: categorical string
 * labels "0", "1", ... numbered as igraph numbers them (by each cluster's first cell), or by size for
 * {@code flavor="leidenalg"}; uns {@code leiden} its params. The algorithm is sequential
 * and seeded by {@code random_state}: the labels depend on the graph and the seed only.
 */
public final class Leiden {

    private Leiden() {}

    /**
     * @param input     the container, with the neighbors' graph, left as it is
     * @param options   scanpy's parameters
     * @param streaming unused but for the step's signature: the algorithm runs on one thread
     * @return a cold Mono of a new container with the labels
     */
    public static Mono<AnnData> leiden(AnnData input, LeidenOptions options, Streaming streaming) {
        return Mono.fromCallable(() -> {
                    AnnData data = input.copy();
                    CsrMatrix graph = options.obsp() != null
                            ? NeighborsGraph.obsp(data, options.obsp(), "obsp")
                            : NeighborsGraph.connectivities(data, options.neighborsKey());
                    int[] labels = clusters(graph, options);
                    String[] names = new String[labels.length];
                    for (int i = 0; i < labels.length; i++) {
                        names[i] = Integer.toString(labels[i]);
                    }
                    data.obs().put(options.keyAdded(), CategoricalColumn.fromValues(names));
                    Map<String, Object> params = new LinkedHashMap<>();
                    params.put("resolution", options.resolution());
                    params.put("random_state", (long) options.randomState());
                    params.put("n_iterations", (long) options.nIterations());
                    Map<String, Object> uns = new LinkedHashMap<>();
                    uns.put("params", params);
                    data.uns().put(options.keyAdded(), uns);
                    return data;
                })
                .contextWrite(Pass.named("leiden"));
    }

    /**
     * Each cell's cluster: numbered by each cluster's first cell (igraph's numbering), or by size, 0 the largest
     * (leidenalg's; equal sizes in the algorithm's order).
     *
     * @param graph   a symmetric weighted adjacency matrix, without self loops
     * @param options the resolution, the seed and the iterations
     * @return the clusters
     */
    static int[] clusters(CsrMatrix graph, LeidenOptions options) {
        int n = (int) graph.nRows();
        long[] firstNeighbor = new long[n + 1];
        LargeIntArray neighbors = new LargeIntArray(graph.nnz());
        LargeDoubleArray weights = new LargeDoubleArray(graph.nnz());
        long at = 0;
        for (int i = 0; i < n; i++) {
            for (long k = graph.indptr(i); k < graph.indptr(i + 1); k++) {
                if (graph.index(k) != i) { // a self loop weighs in modularity's degrees only as igraph counts it
                    neighbors.set(at, graph.index(k));
                    weights.set(at++, graph.value(k));
                }
            }
            firstNeighbor[i + 1] = at;
        }
        neighbors.resize(at);
        weights.resize(at);
        Network network = new Network(n, true, firstNeighbor, neighbors, weights, false);
        // modularity as the CPM of a network whose node weights are the degrees: resolution / 2m
        double resolution = options.resolution() / (2 * network.getTotalEdgeWeight());
        LeidenAlgorithm algorithm = new LeidenAlgorithm(
                resolution,
                options.nIterations(),
                LeidenAlgorithm.DEFAULT_RANDOMNESS,
                new Random(options.randomState()));
        Clustering clustering = new Clustering(n);
        algorithm.improveClustering(network, clustering);
        if (options.bySize()) {
            clustering.orderClustersByNNodes();
            return clustering.getClusters();
        }
        int[] clusters = clustering.getClusters();
        int[] renamed = new int[clustering.getNClusters()];
        Arrays.fill(renamed, -1);
        int next = 0;
        for (int i = 0; i < n; i++) {
            if (renamed[clusters[i]] < 0) {
                renamed[clusters[i]] = next++;
            }
            clusters[i] = renamed[clusters[i]];
        }
        return clusters;
    }
}
