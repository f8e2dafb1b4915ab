/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import io.scflux.core.anndata.CsrMatrix;
import io.scflux.ops.linalg.LanczosEigen;
import java.util.ArrayDeque;

/**
 * umap-learn's spectral start: the eigenvectors of the graph's normalized Laplacian {@code I - D^-1/2 W D^-1/2} with
 * the smallest eigenvalues after the trivial one, found as the largest of {@code D^-1/2 W D^-1/2} by Lanczos from a
 * fixed start vector (so they depend on the graph alone, up to the sign Lanczos gives them).
 */
final class SpectralLayout {

    /** umap-learn's eigsh tolerance. */
    private static final double TOLERANCE = 1e-4;

    private SpectralLayout() {}

    /**
     * @param graph the symmetric weights, every cell in one connected component
     * @param dims  the layout's dimensions
     * @return {@code n x dims} row-major coordinates
     */
    static double[] of(CsrMatrix graph, int dims) {
        int n = (int) graph.nRows();
        double[] scale = new double[n];
        for (int i = 0; i < n; i++) {
            double d = 0;
            for (long k = graph.indptr(i); k < graph.indptr(i + 1); k++) {
                d += graph.value(k);
            }
            scale[i] = d > 0 ? 1 / Math.sqrt(d) : 0;
        }
        LanczosEigen.Operator normalized = x -> {
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (long k = graph.indptr(i); k < graph.indptr(i + 1); k++) {
                    int j = graph.index(k);
                    s += graph.value(k) * scale[j] * x[j];
                }
                y[i] = scale[i] * s;
            }
            return y;
        };
        int k = dims + 1;
        LanczosEigen.Pairs top = LanczosEigen.top(normalized, n, k, TOLERANCE);
        double[] out = new double[n * dims];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < dims; c++) {
                out[i * dims + c] = top.vectors()[i * k + c + 1];
            }
        }
        return out;
    }

    /**
     * @param graph a symmetric graph
     * @return whether every cell reaches every other
     */
    static boolean connected(CsrMatrix graph) {
        int n = (int) graph.nRows();
        if (n == 0) {
            return true;
        }
        boolean[] seen = new boolean[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(0);
        seen[0] = true;
        int reached = 1;
        while (!queue.isEmpty()) {
            int i = queue.poll();
            for (long k = graph.indptr(i); k < graph.indptr(i + 1); k++) {
                int j = graph.index(k);
                if (!seen[j]) {
                    seen[j] = true;
                    reached++;
                    queue.add(j);
                }
            }
        }
        return reached == n;
    }
}
