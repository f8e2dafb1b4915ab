/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import java.util.Arrays;

/**
 * The bins of gene means that dispersions are normalized in, as scanpy cuts them with pandas: {@code n} equal-width
 * bins over the range ({@code pd.cut(means, n)}, seurat) or the bins between the 10th, 15th, ..., 100th percentiles
 * with open ends ({@code pd.cut(means, [-inf, percentiles, inf])}, cell_ranger). Bins are right-closed.
 */
final class MeanBins {

    private MeanBins() {}

    /** The bin of each mean: {@code pd.cut(means, bins=nBins)}'s codes. */
    static int[] equalWidth(double[] means, int nBins) {
        double mn = Double.POSITIVE_INFINITY;
        double mx = Double.NEGATIVE_INFINITY;
        for (double m : means) {
            mn = Math.min(mn, m);
            mx = Math.max(mx, m);
        }
        if (Double.isInfinite(mn) || Double.isInfinite(mx)) {
            throw new IllegalArgumentException("cannot bin gene means over an infinite range (seurat takes expm1 of X: "
                    + "is X log-normalized?)");
        }
        double[] edges;
        if (mn == mx) {
            mn -= mn != 0 ? 0.001 * Math.abs(mn) : 0.001;
            mx += mx != 0 ? 0.001 * Math.abs(mx) : 0.001;
            edges = linspace(mn, mx, nBins + 1);
        } else {
            edges = linspace(mn, mx, nBins + 1);
            edges[0] -= (mx - mn) * 0.001;
        }
        return cut(means, edges);
    }

    /** The bin of each mean between {@code -inf}, the 10th, 15th, ..., 100th percentiles of the means, and inf. */
    static int[] percentiles(double[] means) {
        double[] sorted = means.clone();
        Arrays.sort(sorted);
        double[] edges = new double[21];
        edges[0] = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < 19; i++) {
            edges[i + 1] = percentile(sorted, (10 + 5 * i) / 100.0);
        }
        edges[20] = Double.POSITIVE_INFINITY;
        for (int i = 1; i < edges.length; i++) {
            if (!(edges[i] > edges[i - 1])) {
                throw new IllegalArgumentException("the percentiles of the gene means are not distinct (bin edge "
                        + edges[i] + " repeats): too many genes share a mean for cell_ranger's bins");
            }
        }
        return cut(means, edges);
    }

    /** numpy's {@code linspace(start, stop, num)}: {@code i * step + start}, the last one {@code stop} exactly. */
    private static double[] linspace(double start, double stop, int num) {
        double[] y = new double[num];
        double step = (stop - start) / (num - 1);
        for (int i = 0; i < num; i++) {
            y[i] = step == 0 ? i / (double) (num - 1) * (stop - start) + start : i * step + start;
        }
        y[num - 1] = stop;
        return y;
    }

    /** numpy's linear percentile of sorted values at {@code q} in [0, 1] (its {@code _lerp}, exact at the ends). */
    private static double percentile(double[] sorted, double q) {
        double virtual = (sorted.length - 1) * q;
        double previous = Math.floor(virtual);
        double gamma = virtual - previous;
        int lo = (int) Math.min(Math.max(previous, 0), sorted.length - 1);
        int hi = Math.min(lo + 1, sorted.length - 1);
        double a = sorted[lo];
        double b = sorted[hi];
        double diff = b - a;
        return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
    }

    /** Right-closed bins {@code (edges[i], edges[i + 1]]}; -1 outside them (never for the edges built here). */
    private static int[] cut(double[] values, double[] edges) {
        int[] bin = new int[values.length];
        for (int g = 0; g < values.length; g++) {
            int i = Arrays.binarySearch(edges, values[g]);
            int above = i >= 0 ? firstEqual(edges, i) : -i - 1;
            bin[g] = above == 0 || above == edges.length ? -1 : above - 1;
        }
        return bin;
    }

    private static int firstEqual(double[] edges, int i) {
        while (i > 0 && edges[i - 1] == edges[i]) {
            i--;
        }
        return i;
    }

    /** The number of bins {@code bins} uses (one more than its largest code). */
    static int count(int[] bins) {
        int n = 0;
        for (int b : bins) {
            n = Math.max(n, b + 1);
        }
        return n;
    }
}
