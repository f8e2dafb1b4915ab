/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.umap;

import io.scflux.core.anndata.CsrMatrix;
import io.scflux.ops.linalg.LanczosEigen;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * umap-learn's spectral start: the eigenvectors of the graph's normalized Laplacian {@code I - D^-1/2 W D^-1/2} with
 * the smallest eigenvalues after the trivial one, found as the largest of {@code D^-1/2 W D^-1/2} by Lanczos from a
 * fixed start vector (so they depend on the graph alone, up to the sign Lanczos gives them); a graph of several
 * connected components is laid out a component at a time ({@link #of}).
 */
final class SpectralLayout {

    /** umap-learn's eigsh tolerance. */
    private static final double TOLERANCE = 1e-4;

    private SpectralLayout() {}

    /**
     * The spectral layout of a graph, of each of its connected components as umap-learn's
     * {@code multi_component_layout} lays them out: each component's own spectral layout, scaled to half the distance
     * between the nearest two component positions and put at its own (for up to {@code 2 dims} components, the
     * corners of a cross, {@code +-e_i}; for more, evenly on the unit circle of the first two dimensions, where
     * umap-learn places their centroids' spectral embedding); a component too small for a spectral layout gets
     * random points in that range.
     *
     * @param graph  the symmetric weights
     * @param dims   the layout's dimensions
     * @param random the seeded stream for small components
     * @return {@code n x dims} row-major coordinates
     */
    static double[] of(CsrMatrix graph, int dims, SplittableRandom random) {
        int n = (int) graph.nRows();
        int[] label = new int[n];
        int count = components(graph, label);
        if (count == 1) {
            return connected(graph, dims);
        }
        double[][] place = places(count, dims);
        double range = Double.POSITIVE_INFINITY;
        for (int a = 0; a < count; a++) {
            for (int b = a + 1; b < count; b++) {
                double s = 0;
                for (int c = 0; c < dims; c++) {
                    double t = place[a][c] - place[b][c];
                    s += t * t;
                }
                range = Math.min(range, Math.sqrt(s) / 2);
            }
        }
        double[] out = new double[n * dims];
        for (int l = 0; l < count; l++) {
            int[] cells = cellsOf(label, l);
            double[] layout;
            if (cells.length < 2 * dims || cells.length <= dims + 1) {
                layout = new double[cells.length * dims];
                for (int i = 0; i < layout.length; i++) {
                    layout[i] = random.nextDouble() * 2 * range - range;
                }
            } else {
                layout = connected(subgraph(graph, cells, label, l), dims);
                double largest = 0;
                for (double v : layout) {
                    largest = Math.max(largest, Math.abs(v));
                }
                for (int i = 0; i < layout.length; i++) {
                    layout[i] *= largest > 0 ? range / largest : 0;
                }
            }
            for (int i = 0; i < cells.length; i++) {
                for (int c = 0; c < dims; c++) {
                    out[cells[i] * dims + c] = layout[i * dims + c] + place[l][c];
                }
            }
        }
        return out;
    }

    /** Where each component goes: the corners of a cross for up to {@code 2 dims}, else the unit circle. */
    private static double[][] places(int count, int dims) {
        double[][] place = new double[count][dims];
        for (int l = 0; l < count; l++) {
            if (count <= 2 * dims) {
                place[l][l % ((count + 1) / 2)] = l < (count + 1) / 2 ? 1 : -1;
            } else {
                double angle = 2 * Math.PI * l / count;
                place[l][0] = Math.cos(angle);
                if (dims > 1) {
                    place[l][1] = Math.sin(angle);
                }
            }
        }
        return place;
    }

    private static int[] cellsOf(int[] label, int l) {
        int m = 0;
        for (int v : label) {
            m += v == l ? 1 : 0;
        }
        int[] cells = new int[m];
        for (int i = 0, at = 0; i < label.length; i++) {
            if (label[i] == l) {
                cells[at++] = i;
            }
        }
        return cells;
    }

    /** The graph among {@code cells} (component {@code l}), renumbered in their order. */
    private static CsrMatrix subgraph(CsrMatrix graph, int[] cells, int[] label, int l) {
        int[] position = new int[label.length];
        for (int i = 0; i < cells.length; i++) {
            position[cells[i]] = i;
        }
        CsrMatrix.Builder out = CsrMatrix.builder(cells.length);
        for (int cell : cells) {
            int from = (int) graph.indptr(cell);
            int to = (int) graph.indptr(cell + 1);
            int[] cols = new int[to - from];
            float[] vals = new float[to - from];
            for (int k = from; k < to; k++) { // a component's edges stay within it
                cols[k - from] = position[graph.index(k)];
                vals[k - from] = graph.value(k);
            }
            out.addRow(cols, vals);
        }
        return out.build();
    }

    /**
     * @param graph the symmetric weights, every cell in one connected component
     * @param dims  the layout's dimensions
     * @return {@code n x dims} row-major coordinates
     */
    private static double[] connected(CsrMatrix graph, int dims) {
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
     * Labels each cell with its connected component, numbered by their first cell.
     *
     * @param graph a symmetric graph
     * @param label each cell's component, filled
     * @return the components
     */
    static int components(CsrMatrix graph, int[] label) {
        int n = (int) graph.nRows();
        Arrays.fill(label, -1);
        int count = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int start = 0; start < n; start++) {
            if (label[start] >= 0) {
                continue;
            }
            label[start] = count;
            queue.add(start);
            while (!queue.isEmpty()) {
                int i = queue.poll();
                for (long k = graph.indptr(i); k < graph.indptr(i + 1); k++) {
                    int j = graph.index(k);
                    if (label[j] < 0) {
                        label[j] = count;
                        queue.add(j);
                    }
                }
            }
            count++;
        }
        return count;
    }
}
