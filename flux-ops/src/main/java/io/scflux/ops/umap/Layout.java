/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import io.scflux.core.anndata.CsrMatrix;
import java.util.SplittableRandom;

/**
 * umap-learn's {@code optimize_layout_euclidean}: stochastic gradient descent on the fuzzy cross-entropy. Each epoch
 * visits the graph's edges in order; an edge is sampled in proportion to its weight, pulls its two ends together and
 * pushes its head away from {@code negativeSampleRate} random cells, with a learning rate falling linearly to 0 and
 * every step clipped to 4. It runs on one thread with one seeded stream, as umap-learn with a {@code random_state}
 * does, so the map depends on the graph, the start and the seed alone.
 */
final class Layout {

    private static final double CLIP = 4;

    private Layout() {}

    /**
     * @param embedding the start, {@code n x dims} row-major, moved in place
     * @param dims      the dimensions
     * @param graph     the weights, zeros already dropped
     * @param epochs    the epochs
     * @param a         the curve's {@code a}
     * @param b         the curve's {@code b}
     * @param options   alpha, gamma, the negative sample rate and the seed
     */
    static void optimize(
            float[] embedding, int dims, CsrMatrix graph, int epochs, double a, double b, UmapOptions options) {
        int n = (int) graph.nRows();
        int edges = (int) graph.nnz();
        int[] head = new int[edges];
        int[] tail = new int[edges];
        double max = 0;
        for (int i = 0; i < n; i++) {
            for (long k = graph.indptr(i); k < graph.indptr(i + 1); k++) {
                head[(int) k] = i;
                tail[(int) k] = graph.index(k);
                max = Math.max(max, graph.value(k));
            }
        }
        double[] perSample = new double[edges];
        for (int e = 0; e < edges; e++) {
            double samples = epochs * (graph.value(e) / max);
            perSample[e] = samples > 0 ? epochs / samples : -1;
        }
        double rate = options.negativeSampleRate();
        double[] perNegative = new double[edges];
        double[] nextSample = perSample.clone();
        double[] nextNegative = new double[edges];
        for (int e = 0; e < edges; e++) {
            perNegative[e] = perSample[e] / rate;
            nextNegative[e] = perNegative[e];
        }
        SplittableRandom random = new SplittableRandom(options.randomState());
        double gamma = options.gamma();
        double alpha = options.alpha();
        for (int epoch = 0; epoch < epochs; epoch++) {
            for (int e = 0; e < edges; e++) {
                if (nextSample[e] > epoch) {
                    continue;
                }
                int j = head[e] * dims;
                int k = tail[e] * dims;
                double d2 = distanceSquared(embedding, j, k, dims);
                double coefficient = 0;
                if (d2 > 0) {
                    double p = Math.pow(d2, b); // d^2(b-1) is p / d2: one pow a sample, the loop's cost
                    coefficient = -2 * a * b * (p / d2) / (a * p + 1);
                }
                for (int d = 0; d < dims; d++) {
                    double step = clip(coefficient * (embedding[j + d] - embedding[k + d])) * alpha;
                    embedding[j + d] += (float) step;
                    embedding[k + d] -= (float) step;
                }
                nextSample[e] += perSample[e];
                int negatives = rate == 0 ? 0 : (int) ((epoch - nextNegative[e]) / perNegative[e]);
                for (int p = 0; p < negatives; p++) {
                    int other = random.nextInt(n);
                    int o = other * dims;
                    double q2 = distanceSquared(embedding, j, o, dims);
                    double repulsion;
                    if (q2 > 0) {
                        repulsion = 2 * gamma * b / ((0.001 + q2) * (a * Math.pow(q2, b) + 1));
                    } else if (other == head[e]) {
                        continue;
                    } else {
                        repulsion = 0;
                    }
                    if (repulsion > 0) {
                        for (int d = 0; d < dims; d++) {
                            embedding[j + d] +=
                                    (float) (clip(repulsion * (embedding[j + d] - embedding[o + d])) * alpha);
                        }
                    }
                }
                nextNegative[e] += negatives * perNegative[e];
            }
            alpha = options.alpha() * (1 - (double) epoch / epochs); // umap-learn: the first two epochs at alpha
        }
    }

    private static double distanceSquared(float[] x, int i, int j, int dims) {
        double s = 0;
        for (int d = 0; d < dims; d++) {
            double t = x[i + d] - x[j + d];
            s += t * t;
        }
        return s;
    }

    private static double clip(double v) {
        return v > CLIP ? CLIP : v < -CLIP ? -CLIP : v;
    }
}
