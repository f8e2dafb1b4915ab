/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.test.Threads;
import io.scflux.ops.neighbors.NeighborsOptions.Metric;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The approximate search against the exact one on 12,000 cells in 20 dimensions (40 Gaussian clusters of different
 * widths, past scanpy's 8,192-cell switch): recall at least 0.98, a neighbour counted when it is no farther than the
 * exact k-th (ties count); the same lists on 1, 2 and 8 threads.
 */
class DescentKnnTest {

    private static final int N = 12_000;
    private static final int D = 20;
    private static final int K = 15;

    private static Representation points() {
        SplittableRandom random = new SplittableRandom(42);
        float[][] centres = new float[40][D];
        double[] widths = new double[40];
        for (int c = 0; c < centres.length; c++) {
            widths[c] = 0.3 + random.nextDouble();
            for (int d = 0; d < D; d++) {
                centres[c][d] = (float) (random.nextDouble() * 10);
            }
        }
        float[] x = new float[N * D];
        for (int i = 0; i < N; i++) {
            int c = random.nextInt(centres.length);
            for (int d = 0; d < D; d++) {
                double u = 1 - random.nextDouble();
                double g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.nextDouble());
                x[i * D + d] = (float) (centres[c][d] + widths[c] * g);
            }
        }
        return new Representation(N, D, x, "X_pca");
    }

    @Test
    void recallsAtLeast98PercentOfTheExactNeighbours() {
        Representation p = points();
        KnnLists exact =
                ExactKnn.search(p, K, Metric.EUCLIDEAN, Threads.TWO.execution()).block();
        KnnLists approximate = DescentKnn.search(p, K, Metric.EUCLIDEAN, 0, Threads.TWO.execution())
                .block();
        long found = 0;
        for (int i = 0; i < N; i++) {
            float kth = exact.distances()[i * K + K - 1];
            for (int a = 1; a < K; a++) {
                if (approximate.distances()[i * K + a] <= kth) {
                    found++;
                }
            }
            assertEquals(i, approximate.indices()[i * K], "each cell first in its own list");
        }
        double recall = found / (double) (N * (K - 1));
        System.out.printf("neighbors: approximate recall %.4f on %d cells%n", recall, N);
        assertTrue(recall >= 0.98, "recall " + recall);
    }

    @Test
    void theSameListsOnAnyThreadCount() {
        Representation p = points();
        KnnLists one = DescentKnn.search(p, K, Metric.EUCLIDEAN, 0, Threads.ONE.execution())
                .block();
        for (Threads t : new Threads[] {Threads.TWO, Threads.EIGHT}) {
            KnnLists other =
                    DescentKnn.search(p, K, Metric.EUCLIDEAN, 0, t.execution()).block();
            assertArrayEquals(one.indices(), other.indices(), t.toString());
            assertArrayEquals(one.distances(), other.distances(), t.toString());
        }
    }
}
