/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.core.Execution;
import io.scflux.ops.neighbors.NeighborsOptions.Metric;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Each cell's nearest cells by brute force, as scanpy's exact path (sklearn's pairwise distances below 8,192
 * cells): every {@link Distances distance} from the float32 points, as sklearn rounds it. Cells are split into fixed
 * ranges computed on the execution's workers; each row depends on the points alone, so the lists are the same bits
 * for any thread count.
 */
final class ExactKnn {

    /** Rows per task: enough to amortize a task, few enough to keep two workers busy to the end. */
    private static final int ROWS_PER_TASK = 64;

    private ExactKnn() {}

    /**
     * @param points    the cells
     * @param k         each cell's neighbours, itself included
     * @param metric    the distance
     * @param execution the workers
     * @return a cold Mono of the lists
     */
    static Mono<KnnLists> search(Representation points, int k, Metric metric, Execution execution) {
        return Mono.defer(() -> {
            int n = points.nCells();
            if (k > n) {
                throw new IllegalArgumentException(
                        "n_neighbors is " + k + ", more than the " + n + " cells (itself included)");
            }
            Distances between = new Distances(points, metric);
            int[] indices = new int[n * k];
            float[] distances = new float[n * k];
            int tasks = (n + ROWS_PER_TASK - 1) / ROWS_PER_TASK;
            return Flux.range(0, tasks)
                    .parallel(execution.threads())
                    .runOn(execution.scheduler())
                    .doOnNext(task -> {
                        NearestHeap nearest = new NearestHeap(k - 1);
                        int to = Math.min(n, (task + 1) * ROWS_PER_TASK);
                        for (int i = task * ROWS_PER_TASK; i < to; i++) {
                            for (int j = 0; j < n; j++) {
                                if (j != i) {
                                    nearest.offer(j, between.between(i, j));
                                }
                            }
                            indices[i * k] = i; // the cell itself first, at 0
                            nearest.drainInto(indices, distances, i * k + 1);
                        }
                    })
                    .sequential()
                    .then(Mono.fromSupplier(() -> new KnnLists(n, k, indices, distances)));
        });
    }
}
