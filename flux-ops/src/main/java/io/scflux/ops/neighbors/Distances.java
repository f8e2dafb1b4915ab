/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.ops.neighbors.NeighborsOptions.Metric;

/**
 * The distance between two cells of a representation, as scanpy's sklearn computes it, for the exact and the
 * approximate search alike: euclidean, the square summed in float64 and rounded to float32 before its float32
 * square root (UMAP's bisection for each cell's width stops on a tolerance, so a distance one float32 step off can
 * move a weight by 1e-5); cosine, one minus the dot product of the rows scaled to unit length, clipped to [0, 2].
 */
final class Distances {

    private final float[] x;
    private final int d;
    private final Metric metric;

    Distances(Representation points, Metric metric) {
        this.x = metric == Metric.COSINE ? unitRows(points) : points.values();
        this.d = points.dims();
        this.metric = metric;
    }

    /** @return the rows distances are taken between: the points, scaled to unit length for cosine */
    float[] rows() {
        return x;
    }

    /**
     * @param i a cell
     * @param j another
     * @return their distance
     */
    float between(int i, int j) {
        int a = i * d;
        int b = j * d;
        double s = 0;
        if (metric == Metric.COSINE) {
            for (int c = 0; c < d; c++) {
                s += (double) x[a + c] * x[b + c];
            }
            return (float) Math.min(2, Math.max(0, 1 - s));
        }
        for (int c = 0; c < d; c++) {
            double t = (double) x[a + c] - x[b + c];
            s += t * t;
        }
        return (float) Math.sqrt((float) s);
    }

    /** The points scaled to unit length (a zero row stays zero: its cosine with any cell is 0, as sklearn's). */
    private static float[] unitRows(Representation points) {
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
