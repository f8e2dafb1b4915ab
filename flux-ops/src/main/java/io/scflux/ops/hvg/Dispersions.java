/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import io.scflux.ops.hvg.HighlyVariableGenesOptions.Flavor;
import io.scflux.ops.moments.GeneSums;
import java.util.Arrays;
import java.util.Objects;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * The dispersion-based flavors (seurat, cell_ranger) of scanpy's {@code highly_variable_genes}, from per-gene sums:
 * mean and dispersion (variance / mean; seurat takes logs), dispersions normalized within bins of mean, and the
 * selection by count or by cut-offs; with batches, each batch on its own genes and the results merged as scanpy does.
 */
final class Dispersions {

    /** {@code statsmodels.robust.mad}'s constant: the 0.75 quantile of the standard normal. */
    private static final double NORMAL_Q75 = 0.6744897501960817;

    final double[] means;
    final double[] dispersions;
    final double[] normalized;
    final boolean[] highlyVariable;
    /** With batches: in how many batches a gene was selected; else null. */
    final long @Nullable [] nBatches;

    private Dispersions(int n, boolean batched) {
        means = new double[n];
        dispersions = new double[n];
        normalized = new double[n];
        highlyVariable = new boolean[n];
        nBatches = batched ? new long[n] : null;
    }

    /** The flavor's statistics for all genes, with every cell in one batch. */
    static Dispersions single(GeneSums.Sums sums, HighlyVariableGenesOptions options) {
        int[] all = new int[sums.nGenes];
        Arrays.setAll(all, g -> g);
        return ofGenes(sums, 0, all, options);
    }

    /**
     * Per batch, the flavor's statistics on the genes with a positive value in some cell of the batch (the others get
     * zeros and are not selected); then per gene the mean over batches (skipping NaN) of means, dispersions and
     * normalized dispersions, and the number of batches it was selected in. By count, the genes selected in most
     * batches win, ties broken by the mean normalized dispersion, then by gene name; by cut-offs, the mean
     * statistics are cut, a NaN dispersion counting as 0.
     */
    static Dispersions batched(
            GeneSums.Sums sums, int batches, String[] geneNames, HighlyVariableGenesOptions options) {
        int nGenes = sums.nGenes;
        Dispersions out = new Dispersions(nGenes, true);
        long[] nBatches = Objects.requireNonNull(out.nBatches, "batched");
        double[][] totals = {out.means, out.dispersions, out.normalized};
        int[][] counts = new int[3][nGenes];
        for (int b = 0; b < batches; b++) {
            if (sums.cells[b] == 0) {
                throw new IllegalArgumentException("batch " + b + " of " + options.batchKey() + " has no cells");
            }
            int base = b * nGenes;
            int[] expressed = IntStream.range(0, nGenes)
                    .filter(g -> sums.positive[base + g] > 0)
                    .toArray();
            Dispersions batch = ofGenes(sums, b, expressed, options);
            double[][] values = {batch.means, batch.dispersions, batch.normalized};
            int[] position = new int[nGenes];
            Arrays.fill(position, -1);
            for (int i = 0; i < expressed.length; i++) {
                position[expressed[i]] = i;
            }
            for (int g = 0; g < nGenes; g++) {
                int i = position[g];
                for (int s = 0; s < 3; s++) {
                    double v = i < 0 ? 0 : values[s][i];
                    if (!Double.isNaN(v)) {
                        totals[s][g] += v;
                        counts[s][g]++;
                    }
                }
                if (i >= 0 && batch.highlyVariable[i]) {
                    nBatches[g]++;
                }
            }
        }
        for (int s = 0; s < 3; s++) {
            for (int g = 0; g < nGenes; g++) {
                totals[s][g] = counts[s][g] == 0 ? Double.NaN : totals[s][g] / counts[s][g];
            }
        }
        if (options.byCount()) {
            Integer[] order = new Integer[nGenes];
            Arrays.setAll(order, g -> g);
            Arrays.sort(order, (a, b) -> {
                int c = Long.compare(nBatches[b], nBatches[a]);
                if (c == 0) {
                    c = descendingNanLast(out.normalized[a], out.normalized[b]);
                }
                if (c == 0) {
                    c = geneNames[a].compareTo(geneNames[b]);
                }
                return c;
            });
            for (int i = 0; i < Math.min(options.topGenes(), nGenes); i++) {
                out.highlyVariable[order[i]] = true;
            }
        } else {
            for (int g = 0; g < nGenes; g++) {
                if (Double.isNaN(out.normalized[g])) {
                    out.normalized[g] = 0;
                }
                out.highlyVariable[g] = inBounds(out.means[g], out.normalized[g], options);
            }
        }
        return out;
    }

    /** One batch's statistics for the genes {@code genes} (in that order), from group {@code group} of the sums. */
    private static Dispersions ofGenes(GeneSums.Sums sums, int group, int[] genes, HighlyVariableGenesOptions o) {
        boolean seurat = o.flavor() == Flavor.SEURAT;
        Dispersions d = new Dispersions(genes.length, false);
        for (int i = 0; i < genes.length; i++) {
            double mean = sums.mean(group, genes[i]);
            double var = sums.variance(group, genes[i]);
            if (mean == 0) {
                mean = 1e-12;
            }
            double dispersion = var / mean;
            if (seurat) {
                dispersion = dispersion == 0 ? Double.NaN : Math.log(dispersion);
                mean = Math.log1p(mean);
            }
            d.means[i] = mean;
            d.dispersions[i] = dispersion;
        }
        if (genes.length == 0) {
            return d;
        }
        int[] bins = seurat ? MeanBins.equalWidth(d.means, o.nBins()) : MeanBins.percentiles(d.means);
        d.normalize(bins, seurat);
        d.select(o);
        return d;
    }

    /**
     * {@code (dispersion - avg) / dev} per bin: seurat's mean and standard deviation (a bin of one gene gets avg 0 and
     * dev its mean, so its gene normalizes to 1), cell_ranger's median and MAD.
     */
    private void normalize(int[] bins, boolean seurat) {
        int nBins = MeanBins.count(bins);
        int[] start = new int[nBins + 1];
        for (int b : bins) {
            start[b + 1]++;
        }
        for (int b = 0; b < nBins; b++) {
            start[b + 1] += start[b];
        }
        double[] grouped = new double[bins.length];
        int[] fill = start.clone();
        for (int g = 0; g < bins.length; g++) {
            grouped[fill[bins[g]]++] = dispersions[g];
        }
        double[] avg = new double[nBins];
        double[] dev = new double[nBins];
        for (int b = 0; b < nBins; b++) {
            double[] values = Arrays.copyOfRange(grouped, start[b], start[b + 1]);
            if (seurat) {
                meanAndStd(values, b, avg, dev);
            } else {
                avg[b] = medianSkippingNan(values);
                dev[b] = mad(values);
            }
        }
        for (int g = 0; g < bins.length; g++) {
            normalized[g] = (dispersions[g] - avg[bins[g]]) / dev[bins[g]];
        }
    }

    private static void meanAndStd(double[] values, int b, double[] avg, double[] dev) {
        double sum = 0;
        int n = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        double mean = n == 0 ? Double.NaN : sum / n;
        double squares = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                squares += (v - mean) * (v - mean);
            }
        }
        double std = n < 2 ? Double.NaN : Math.sqrt(squares / (n - 1));
        if (Double.isNaN(std)) {
            avg[b] = 0;
            dev[b] = mean;
        } else {
            avg[b] = mean;
            dev[b] = std;
        }
    }

    private static double medianSkippingNan(double[] values) {
        return median(Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray());
    }

    /** {@code statsmodels.robust.mad}: the median of {@code |x - median(x)| / 0.6745}; NaN if any value is. */
    private static double mad(double[] values) {
        double center = median(values.clone());
        double[] deviations = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            deviations[i] = Math.abs(values[i] - center) / NORMAL_Q75;
        }
        return median(deviations);
    }

    /** numpy's median (the mean of the middle two for an even count; NaN if empty or any value is NaN). */
    private static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        Arrays.sort(values);
        if (Double.isNaN(values[values.length - 1])) {
            return Double.NaN;
        }
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    /**
     * scanpy's {@code _subset_genes}: by count, every gene whose normalized dispersion reaches the n-th highest (NaN
     * never; infinities as numpy's {@code nan_to_num} leaves them); by cut-offs, the open bounds on the (log) mean and
     * on the normalized dispersion with NaN read as 0.
     */
    private void select(HighlyVariableGenesOptions o) {
        if (o.byCount()) {
            double[] finite =
                    Arrays.stream(normalized).filter(v -> !Double.isNaN(v)).toArray();
            if (finite.length == 0) {
                throw new IllegalArgumentException("no gene has a normalized dispersion to rank");
            }
            Arrays.sort(finite);
            int n = Math.min(Math.min(o.topGenes(), normalized.length), finite.length);
            double cutoff = finite[finite.length - n];
            for (int g = 0; g < normalized.length; g++) {
                highlyVariable[g] = nanToNum(normalized[g], Double.NEGATIVE_INFINITY) >= cutoff;
            }
        } else {
            for (int g = 0; g < normalized.length; g++) {
                highlyVariable[g] = inBounds(means[g], nanToNum(normalized[g], 0), o);
            }
        }
    }

    private static boolean inBounds(double mean, double dispersion, HighlyVariableGenesOptions o) {
        return mean > o.minMean() && mean < o.maxMean() && dispersion > o.minDisp() && dispersion < o.maxDisp();
    }

    /** numpy's {@code nan_to_num(v, nan=nan)}: infinities become the largest finite doubles. */
    private static double nanToNum(double v, double nan) {
        if (Double.isNaN(v)) {
            return nan;
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? Double.MAX_VALUE : -Double.MAX_VALUE;
        }
        return v;
    }

    /** Descending order with NaN after every number. */
    private static int descendingNanLast(double a, double b) {
        boolean na = Double.isNaN(a);
        boolean nb = Double.isNaN(b);
        if (na || nb) {
            return Boolean.compare(na, nb);
        }
        return Double.compare(b, a);
    }
}
