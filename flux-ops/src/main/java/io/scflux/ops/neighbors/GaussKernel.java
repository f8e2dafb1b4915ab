/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.core.DType;
import io.scflux.core.anndata.CsrMatrix;
import java.util.Arrays;

/**
 * scanpy's {@code method="gauss"} on the kNN lists (Coifman et al. 2005 with Haghverdi et al. 2016's adaptive
 * widths): each cell's width {@code sigma} is the median of its squared distances to its other neighbours (square
 * root taken), an edge between cells {@code i} and {@code j} weighs
 * {@code sqrt(2 s_i s_j / (s_i^2 + s_j^2)) exp(-d^2 / (s_i^2 + s_j^2))}, on every pair where one is among the
 * other's neighbours. Symmetric, float64 CSR with sorted indices.
 */
final class GaussKernel {

    private GaussKernel() {}

    /**
     * @param knn the lists, each cell first in its own
     * @return the kernel's weights
     */
    static CsrMatrix of(KnnLists knn) {
        int n = knn.nCells();
        int k = knn.k();
        int[] idx = knn.indices();
        float[] d = knn.distances();
        double[] sigmaSq = new double[n];
        double[] sq = new double[k - 1];
        for (int i = 0; i < n; i++) {
            for (int j = 1; j < k; j++) {
                double v = d[i * k + j];
                sq[j - 1] = v * v;
            }
            Arrays.sort(sq);
            int m = sq.length;
            sigmaSq[i] = m % 2 == 1 ? sq[m / 2] : (sq[m / 2 - 1] + sq[m / 2]) / 2;
        }
        // the pattern: each cell's others, and the cells that have it among theirs (by a counting transpose)
        long[] inPtr = new long[n + 1];
        for (int i = 0; i < n; i++) {
            for (int j = 1; j < k; j++) {
                inPtr[idx[i * k + j] + 1]++;
            }
        }
        for (int i = 0; i < n; i++) {
            inPtr[i + 1] += inPtr[i];
        }
        int[] inFrom = new int[(int) inPtr[n]];
        float[] inDist = new float[inFrom.length];
        long[] fill = Arrays.copyOf(inPtr, n);
        for (int i = 0; i < n; i++) {
            for (int j = 1; j < k; j++) {
                int slot = (int) fill[idx[i * k + j]]++;
                inFrom[slot] = i;
                inDist[slot] = d[i * k + j];
            }
        }
        CsrMatrix.Builder out = CsrMatrix.builder(n).dtype(DType.FLOAT64);
        int[] cols = new int[k + n];
        float[] dist = new float[cols.length];
        for (int i = 0; i < n; i++) {
            int m = 0;
            for (int j = 1; j < k; j++) {
                cols[m] = idx[i * k + j];
                dist[m++] = d[i * k + j];
            }
            for (long e = inPtr[i]; e < inPtr[i + 1]; e++) {
                cols[m] = inFrom[(int) e];
                dist[m++] = inDist[(int) e];
            }
            sortUnique(cols, dist, m, out, i, sigmaSq);
        }
        return out.build();
    }

    /** Row {@code i}: its columns sorted, each once (both directions of a mutual pair have the same distance). */
    private static void sortUnique(int[] cols, float[] dist, int m, CsrMatrix.Builder out, int i, double[] sigmaSq) {
        long[] packed = new long[m];
        for (int e = 0; e < m; e++) {
            packed[e] = ((long) cols[e] << 32) | e;
        }
        Arrays.sort(packed);
        int[] c = new int[m];
        float[] w = new float[m];
        int u = 0;
        for (int e = 0; e < m; e++) {
            int col = (int) (packed[e] >>> 32);
            if (u > 0 && c[u - 1] == col) {
                continue;
            }
            double dd = dist[(int) packed[e]];
            double den = sigmaSq[i] + sigmaSq[col];
            double num = 2 * Math.sqrt(sigmaSq[i]) * Math.sqrt(sigmaSq[col]);
            c[u] = col;
            w[u++] = (float) (Math.sqrt(num / den) * Math.exp(-(dd * dd) / den));
        }
        out.addRow(Arrays.copyOf(c, u), Arrays.copyOf(w, u));
    }
}
