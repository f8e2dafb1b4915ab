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
 * cells): every distance from the float32 points, the square summed in float64 and rounded to float32 as sklearn
 * rounds it (UMAP's bisection for each cell's width stops on a tolerance, so a distance one float32 step off can
 * move a weight by 1e-5). Cells are split into fixed ranges computed on the execution's
 * workers; each row depends on the points alone, so the lists are the same bits for any thread count.
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
            float[] unit = metric == Metric.COSINE ? unitRows(points) : points.values();
            int[] indices = new int[n * k];
            float[] distances = new float[n * k];
            int tasks = (n + ROWS_PER_TASK - 1) / ROWS_PER_TASK;
            return Flux.range(0, tasks)
                    .parallel(execution.threads())
                    .runOn(execution.scheduler())
                    .doOnNext(task -> {
                        float[] row = new float[n];
                        NearestHeap nearest = new NearestHeap(k - 1);
                        int to = Math.min(n, (task + 1) * ROWS_PER_TASK);
                        for (int i = task * ROWS_PER_TASK; i < to; i++) {
                            distancesFrom(unit, points.dims(), i, metric, row);
                            for (int j = 0; j < n; j++) {
                                if (j != i) {
                                    nearest.offer(j, row[j]);
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

    /** Row {@code i}'s distance to every cell, into {@code out}. */
    private static void distancesFrom(float[] x, int d, int i, Metric metric, float[] out) {
        int a = i * d;
        for (int j = 0, b = 0; j < out.length; j++, b += d) {
            double s = 0;
            if (metric == Metric.COSINE) {
                for (int c = 0; c < d; c++) {
                    s += (double) x[a + c] * x[b + c];
                }
                out[j] = (float) Math.min(2, Math.max(0, 1 - s)); // sklearn's cosine_distances clips to [0, 2]
            } else {
                for (int c = 0; c < d; c++) {
                    double t = (double) x[a + c] - x[b + c];
                    s += t * t;
                }
                // sklearn's float32 distances: the square, rounded to float32, then its float32 square root
                out[j] = (float) Math.sqrt((float) s);
            }
        }
    }

    /** The points scaled to unit length (a zero row stays zero: its cosine with any cell is 0, as sklearn's). */
    static float[] unitRows(Representation points) {
        int d = points.dims();
        float[] x = points.values();
        float[] out = new float[x.length];
        for (int i = 0; i < points.nCells(); i++) {
            double s = 0;
            for (int c = 0; c < d; c++) {
                s += (double) x[i * d + c] * x[i * d + c];
            }
            double norm = Math.sqrt(s);
            for (int c = 0; c < d; c++) {
                out[i * d + c] = norm == 0 ? 0f : (float) (x[i * d + c] / norm);
            }
        }
        return out;
    }
}
