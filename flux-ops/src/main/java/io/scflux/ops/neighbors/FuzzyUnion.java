/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import io.scflux.core.anndata.CsrMatrix;
import java.util.Arrays;

/**
 * UMAP's fuzzy simplicial set of the kNN lists, as scanpy's {@code method="umap"} (umap-learn's
 * {@code fuzzy_simplicial_set} with {@code local_connectivity=1}, {@code set_op_mix_ratio=1}): each cell's
 * memberships {@code exp(-(d - rho) / sigma)}, {@code rho} its distance to its nearest other cell and {@code sigma}
 * found by bisection so that its memberships sum to {@code log2(k)}; then the fuzzy union {@code P + P' - P o P'}.
 * float32 CSR with sorted indices and no zeros, as scanpy writes {@code connectivities}.
 */
final class FuzzyUnion {

    /** umap-learn's bisection: iterations and tolerance. */
    private static final int N_ITER = 64;

    private static final double SMOOTH_K_TOLERANCE = 1e-5;
    /** umap-learn's floor of sigma, as a fraction of the mean distance. */
    private static final double MIN_K_DIST_SCALE = 1e-3;

    private FuzzyUnion() {}

    /**
     * @param knn the lists, each cell first in its own
     * @return the symmetric membership matrix
     */
    static CsrMatrix of(KnnLists knn) {
        int n = knn.nCells();
        int k = knn.k();
        float[] memberships = memberships(knn);
        // P: row i holds its neighbours' memberships, columns sorted (a row's neighbours are distinct)
        long[] pPtr = new long[n + 1];
        int[] pCol = new int[n * k];
        float[] pVal = new float[n * k];
        int[] order = new int[k];
        int[] idx = knn.indices();
        int at = 0;
        for (int i = 0; i < n; i++) {
            int base = i * k;
            for (int j = 0; j < k; j++) { // insertion sort of the row's positions by neighbour: k is small
                int c = j;
                while (c > 0 && idx[base + order[c - 1]] > idx[base + j]) {
                    order[c] = order[c - 1];
                    c--;
                }
                order[c] = j;
            }
            for (int j : order) {
                float v = memberships[base + j];
                if (v != 0f) {
                    pCol[at] = idx[base + j];
                    pVal[at++] = v;
                }
            }
            pPtr[i + 1] = at;
        }
        // P': a counting sort of P's entries by column keeps each column's rows in order
        long[] tPtr = new long[n + 1];
        for (int e = 0; e < at; e++) {
            tPtr[pCol[e] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            tPtr[i + 1] += tPtr[i];
        }
        int[] tCol = new int[at];
        float[] tVal = new float[at];
        long[] fill = Arrays.copyOf(tPtr, n);
        for (int i = 0; i < n; i++) {
            for (int e = (int) pPtr[i]; e < pPtr[i + 1]; e++) {
                int slot = (int) fill[pCol[e]]++;
                tCol[slot] = i;
                tVal[slot] = pVal[e];
            }
        }
        // the union, row by row: a + b - a * b, in float32 as scipy computes it
        CsrMatrix.Builder out = CsrMatrix.builder(n);
        int[] cols = new int[2 * k + n];
        float[] vals = new float[cols.length];
        for (int i = 0; i < n; i++) {
            int p = (int) pPtr[i];
            int pEnd = (int) pPtr[i + 1];
            int t = (int) tPtr[i];
            int tEnd = (int) tPtr[i + 1];
            int m = 0;
            while (p < pEnd || t < tEnd) {
                int c;
                float a = 0f;
                float b = 0f;
                if (t >= tEnd || (p < pEnd && pCol[p] < tCol[t])) {
                    c = pCol[p];
                    a = pVal[p++];
                } else if (p >= pEnd || tCol[t] < pCol[p]) {
                    c = tCol[t];
                    b = tVal[t++];
                } else {
                    c = pCol[p];
                    a = pVal[p++];
                    b = tVal[t++];
                }
                float sum = a + b;
                float v = sum - a * b;
                if (v != 0f) {
                    cols[m] = c;
                    vals[m++] = v;
                }
            }
            out.addRow(Arrays.copyOf(cols, m), Arrays.copyOf(vals, m));
        }
        return out.build();
    }

    /** Each list entry's membership: 0 for the cell itself, 1 within its nearest distance, else the kernel. */
    static float[] memberships(KnnLists knn) {
        int n = knn.nCells();
        int k = knn.k();
        float[] d = knn.distances();
        double mean = 0;
        for (float v : d) {
            mean += v;
        }
        mean /= d.length;
        float[] out = new float[d.length];
        double target = Math.log(k) / Math.log(2);
        for (int i = 0; i < n; i++) {
            int base = i * k;
            float rho = rho(d, base, k);
            float sigma = sigma(d, base, k, rho, target, mean);
            for (int j = 0; j < k; j++) {
                float v;
                if (knn.indices()[base + j] == i) {
                    v = 0f;
                } else if (d[base + j] - rho <= 0f || sigma == 0f) {
                    v = 1f;
                } else {
                    v = (float) Math.exp(-((d[base + j] - rho) / sigma));
                }
                out[base + j] = v;
            }
        }
        return out;
    }

    /** The distance to the nearest cell at a distance above 0 ({@code local_connectivity=1}). */
    private static float rho(float[] d, int base, int k) {
        float largest = 0f;
        for (int j = 0; j < k; j++) {
            if (d[base + j] > 0f) {
                return d[base + j]; // the lists are sorted
            }
            largest = Math.max(largest, d[base + j]);
        }
        return largest;
    }

    /** umap-learn's bisection for the width whose memberships (the cell's own skipped) sum to the target. */
    private static float sigma(float[] d, int base, int k, float rho, double target, double meanAll) {
        double lo = 0;
        double hi = Double.POSITIVE_INFINITY;
        double mid = 1;
        for (int it = 0; it < N_ITER; it++) {
            double psum = 0;
            for (int j = 1; j < k; j++) {
                float gap = d[base + j] - rho;
                psum += gap > 0f ? Math.exp(-(gap / mid)) : 1.0;
            }
            if (Math.abs(psum - target) < SMOOTH_K_TOLERANCE) {
                break;
            }
            if (psum > target) {
                hi = mid;
                mid = (lo + hi) / 2;
            } else {
                lo = mid;
                mid = hi == Double.POSITIVE_INFINITY ? mid * 2 : (lo + hi) / 2;
            }
        }
        float sigma = (float) mid;
        if (rho > 0f) {
            double mean = 0;
            for (int j = 0; j < k; j++) {
                mean += d[base + j];
            }
            mean /= k;
            sigma = (float) Math.max(sigma, MIN_K_DIST_SCALE * mean);
        } else {
            sigma = (float) Math.max(sigma, MIN_K_DIST_SCALE * meanAll);
        }
        return sigma;
    }
}
