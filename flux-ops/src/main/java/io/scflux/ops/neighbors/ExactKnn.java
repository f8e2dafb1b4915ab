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
                        double[] row = new double[n];
                        Nearest nearest = new Nearest(k);
                        int to = Math.min(n, (task + 1) * ROWS_PER_TASK);
                        for (int i = task * ROWS_PER_TASK; i < to; i++) {
                            distancesFrom(unit, points.dims(), i, metric, row);
                            nearest.of(row, i, indices, distances, i * k);
                        }
                    })
                    .sequential()
                    .then(Mono.fromSupplier(() -> new KnnLists(n, k, indices, distances)));
        });
    }

    /** Row {@code i}'s distance to every cell, into {@code out}. */
    private static void distancesFrom(float[] x, int d, int i, Metric metric, double[] out) {
        int a = i * d;
        for (int j = 0, b = 0; j < out.length; j++, b += d) {
            double s = 0;
            if (metric == Metric.COSINE) {
                for (int c = 0; c < d; c++) {
                    s += (double) x[a + c] * x[b + c];
                }
                out[j] = Math.min(2, Math.max(0, 1 - s)); // sklearn's cosine_distances clips to [0, 2]
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

    /**
     * The {@code k} smallest of a row of distances, the cell itself first: a bounded max-heap ordered by
     * (distance, position), reused row after row.
     */
    private static final class Nearest {
        private final int k;
        private final int[] heap;
        private final double[] keys;

        Nearest(int k) {
            this.k = k;
            this.heap = new int[k - 1];
            this.keys = new double[k - 1];
        }

        void of(double[] row, int self, int[] indices, float[] distances, int at) {
            int m = k - 1;
            int size = 0;
            for (int j = 0; j < row.length; j++) {
                if (j == self) {
                    continue;
                }
                double v = row[j];
                if (size < m) {
                    heap[size] = j;
                    keys[size] = v;
                    up(size++);
                } else if (before(v, j, keys[0], heap[0])) {
                    heap[0] = j;
                    keys[0] = v;
                    down(0, m);
                }
            }
            indices[at] = self;
            distances[at] = 0f;
            for (int end = size - 1; end >= 0; end--) { // pop the largest into the last place
                indices[at + 1 + end] = heap[0];
                distances[at + 1 + end] = (float) keys[0];
                heap[0] = heap[end];
                keys[0] = keys[end];
                down(0, end);
            }
        }

        private static boolean before(double a, int i, double b, int j) {
            return a < b || (a == b && i < j);
        }

        private void up(int c) {
            while (c > 0) {
                int p = (c - 1) / 2;
                if (!before(keys[p], heap[p], keys[c], heap[c])) {
                    return;
                }
                swap(p, c);
                c = p;
            }
        }

        private void down(int p, int size) {
            while (true) {
                int l = 2 * p + 1;
                if (l >= size) {
                    return;
                }
                int c = l + 1 < size && before(keys[l], heap[l], keys[l + 1], heap[l + 1]) ? l + 1 : l;
                if (!before(keys[p], heap[p], keys[c], heap[c])) {
                    return;
                }
                swap(p, c);
                p = c;
            }
        }

        private void swap(int a, int b) {
            int h = heap[a];
            heap[a] = heap[b];
            heap[b] = h;
            double t = keys[a];
            keys[a] = keys[b];
            keys[b] = t;
        }
    }
}
