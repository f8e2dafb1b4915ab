/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import io.scflux.core.InvalidValueException;
import io.scflux.ops.moments.GeneSums;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * scanpy's {@code seurat_v3} flavor (Seurat's vst) on counts, in two passes over X. The first pass gives each gene's
 * mean and variance (ddof 1) per batch; a LOESS of log10 variance on log10 mean (span 0.3, degree 2, over the genes
 * with a positive variance) gives the expected standard deviation, and values are clipped at {@code sd * sqrt(N) +
 * mean}. The second pass sums the clipped values, giving the variance of the standardized values ("normalized
 * variance"). Genes are ranked by it per batch; the rank is the median over the batches where a gene is in the top
 * {@code n}, and the top {@code n} by rank (ties: selected in more batches first) are highly variable.
 */
final class SeuratV3 {

    final double[] means;
    final double[] variances;
    final double[] variancesNorm;
    final float[] rank;
    final long[] nBatches;
    final boolean[] highlyVariable;

    /** The standard deviations the LOESS expects and the clipping ceilings, per batch and gene. */
    private final double[] expectedStd;

    private final double[] ceiling;
    private final Batches batches;
    private final int nGenes;

    /** The first pass's statistics: overall mean and variance, and the fit per batch. */
    SeuratV3(GeneSums.Sums sums, Batches batches, double span) {
        this.batches = batches;
        this.nGenes = sums.nGenes;
        means = new double[nGenes];
        variances = new double[nGenes];
        variancesNorm = new double[nGenes];
        rank = new float[nGenes];
        nBatches = new long[nGenes];
        highlyVariable = new boolean[nGenes];
        expectedStd = new double[batches.groups() * nGenes];
        ceiling = new double[batches.groups() * nGenes];
        Arrays.fill(ceiling, Double.POSITIVE_INFINITY);

        GeneSums.Sums total = sums.total();
        for (int g = 0; g < nGenes; g++) {
            means[g] = total.mean(0, g);
            variances[g] = total.variance(0, g);
        }

        double[] mean = new double[nGenes];
        double[] var = new double[nGenes];
        for (int b = 0; b < batches.count; b++) {
            long n = sums.cells[b];
            if (n < 2) {
                throw new IllegalArgumentException(
                        "seurat_v3 needs at least 2 cells per batch; batch " + b + " has " + n);
            }
            for (int g = 0; g < nGenes; g++) {
                mean[g] = sums.mean(b, g);
                var[g] = sums.variance(b, g);
            }
            int[] varying = IntStream.range(0, nGenes).filter(g -> var[g] > 0).toArray();
            if (Math.floor(varying.length * span + 1e-5) < 4) {
                // Loess's own refusal ("span is too small for 0 points") would not say why; scanpy's fit fails too
                throw new InvalidValueException("seurat_v3: " + varying.length + " of " + nGenes + " genes vary"
                        + (batches.count > 1 ? " in batch " + b : "") + " across " + n + " cells: the LOESS fit "
                        + "of log variance on log mean needs at least " + (int) Math.ceil(4 / span) + " genes whose "
                        + "variance is not 0 at span " + span + " (are these counts, and not all alike?)");
            }
            double[] x = new double[varying.length];
            double[] y = new double[varying.length];
            for (int i = 0; i < varying.length; i++) {
                x[i] = Math.log10(mean[varying[i]]);
                y[i] = Math.log10(var[varying[i]]);
            }
            double[] fitted = Loess.interpolate(x, y, span, 2).at(x);
            double[] estimate = new double[nGenes];
            for (int i = 0; i < varying.length; i++) {
                estimate[varying[i]] = fitted[i];
            }
            double vmax = Math.sqrt(n);
            for (int g = 0; g < nGenes; g++) {
                double std = Math.sqrt(Math.pow(10, estimate[g]));
                expectedStd[b * nGenes + g] = std;
                ceiling[b * nGenes + g] = std * vmax + mean[g];
            }
        }
    }

    /** The ceilings of the second pass, per group (batch) and gene; cells without a batch are not clipped. */
    double[] ceiling() {
        return ceiling;
    }

    /** Ranks and selects from the second pass's sums of clipped values. */
    SeuratV3 select(GeneSums.Sums first, GeneSums.Sums clipped, int nTop) {
        int nb = batches.count;
        float[][] ranks = new float[nb][];
        for (int b = 0; b < nb; b++) {
            long n = first.cells[b];
            double[] norm = new double[nGenes];
            for (int g = 0; g < nGenes; g++) {
                int i = b * nGenes + g;
                double std = expectedStd[i];
                double mean = first.mean(b, g);
                norm[g] = (1 / ((n - 1) * (std * std)))
                        * ((n * (mean * mean) + clipped.sumSq[i]) - 2 * clipped.sum[i] * mean);
                variancesNorm[g] += norm[g];
            }
            ranks[b] = ranks(norm);
        }
        for (int g = 0; g < nGenes; g++) {
            variancesNorm[g] /= nb;
            float[] top = new float[nb];
            int k = 0;
            for (int b = 0; b < nb; b++) {
                if (ranks[b][g] < nTop) {
                    top[k++] = ranks[b][g];
                }
            }
            nBatches[g] = k;
            rank[g] = median(top, k);
        }
        Integer[] order = new Integer[nGenes];
        Arrays.setAll(order, g -> g);
        Arrays.sort(order, (a, b) -> {
            boolean na = Float.isNaN(rank[a]);
            boolean nbn = Float.isNaN(rank[b]);
            if (na || nbn) {
                return Boolean.compare(na, nbn);
            }
            int c = Float.compare(rank[a], rank[b]);
            return c != 0 ? c : Long.compare(nBatches[b], nBatches[a]);
        });
        for (int i = 0; i < Math.min(nTop, nGenes); i++) {
            highlyVariable[order[i]] = true;
        }
        return this;
    }

    /** Each gene's rank by decreasing {@code values} (0 = largest; ties by position, NaN last). */
    private static float[] ranks(double[] values) {
        Integer[] order = new Integer[values.length];
        Arrays.setAll(order, g -> g);
        Arrays.sort(order, (a, b) -> Double.compare(-values[a], -values[b]));
        float[] rank = new float[values.length];
        for (int r = 0; r < order.length; r++) {
            rank[order[r]] = r;
        }
        return rank;
    }

    /** The median of {@code v[0..k)} (the mean of the middle two for an even count), NaN when empty. */
    private static float median(float[] v, int k) {
        if (k == 0) {
            return Float.NaN;
        }
        Arrays.sort(v, 0, k);
        return k % 2 == 1 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
    }
}
