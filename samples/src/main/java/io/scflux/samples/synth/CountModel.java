/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.synth;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The dataset-wide parameters of synthetic counts, all drawn from the seed: gene expression profiles per cell type
 * (a log-normal baseline, each type up-regulating its own program, 13 mitochondrial genes holding a few percent),
 * per-gene donor effects, per-gene negative-binomial dispersions, cell-type abundances, and the sequencing depth
 * calibrated so that a cell has {@code nnzPerCell} nonzeros on average.
 *
 * <p>A cell's count of gene g is NB(mean {@code library * weight[type][g] * donorEffect[donor][g]}, size
 * {@code dispersion[g]}). Rows are drawn by {@link RowSampler} from a random stream that depends only on the seed
 * and the row, so any block can be made on any thread, in any order, with the same bits.
 */
final class CountModel {

    /** Share of a cell's expected counts on the mitochondrial genes, before the per-cell factor. */
    static final double MT_SHARE = 0.05;
    /** Spread (sd of log) of baseline gene expression: gene means span about four orders of magnitude. */
    private static final double GENE_SIGMA = 1.6;
    /** Spread (sd of log) of the mitochondrial genes' shares among themselves. */
    private static final double MT_GENE_SIGMA = 0.5;
    /** Program genes per cell type, as a fraction of the other genes (fewer when the programs would overlap). */
    private static final double PROGRAM_FRACTION = 0.05;
    /** Median fold change of a program gene in its own cell type, and the spread (sd of log) of the folds. */
    private static final double PROGRAM_FOLD = 5;

    private static final double PROGRAM_SIGMA = 0.4;
    /** Spread (sd of log) of cell-type abundances: some types are common, some rare. */
    private static final double TYPE_SIGMA = 0.7;
    /** Spread (sd of log) of a donor's effect on one gene, clipped at two spreads, and on the library size. */
    private static final double DONOR_SIGMA = 0.2;

    private static final double DONOR_DEPTH_SIGMA = 0.15;
    /** Spread (sd of log) of a cell's library size and of its mitochondrial fraction around the median. */
    static final double LIBRARY_SIGMA = 0.5;

    static final double MT_CELL_SIGMA = 0.4;
    /**
     * NB size parameter r per gene (variance = mean + mean^2 / r): a power of two from 1/2 to 8, median 2, so that
     * P(0) = (r / (r + mean))^r takes a division and a few squarings (or a square root), no {@code pow}.
     */
    private static final int MEDIAN_LOG2_DISPERSION = 1;

    private static final int MIN_LOG2_DISPERSION = -1;
    private static final int MAX_LOG2_DISPERSION = 3;
    private static final double LOG2_DISPERSION_SIGMA = 0.8;
    /** Ratio of the largest to the smallest key in a band of genes the sampler thins together. */
    private static final double BAND_RATIO = 1.3;
    /** Standard normal quantiles at (k + 1/2) / 8: the library sizes the depth calibration averages over. */
    private static final double[] LIBRARY_NODES = {-1.5341, -0.8871, -0.4888, -0.1573, 0.1573, 0.4888, 0.8871, 1.5341};

    final SynthSpec spec;
    /** Positions of the mitochondrial genes, ascending, in the order of {@link SynthSpec#MT_GENES}. */
    final int[] mtPosition;

    final String[] geneNames;
    final String[] geneIds;
    /** Expected share of a cell's counts per gene, by cell type; each row sums to 1. */
    final double[][] weight;
    /** Multiplier of each gene's mean per donor (mean 1 over donors), and of the library size per donor. */
    final double[][] donorEffect;

    final double[] donorDepth;
    /** NB size parameter r per gene, and its base-2 logarithm. */
    final double[] dispersion;

    final int[] log2Dispersion;
    /** Genes each cell type up-regulates, ascending. */
    final int[][] program;

    private final double[] typeCumulative;
    /**
     * Per cell type, the non-mitochondrial genes by decreasing {@code weight * max donor effect}, cut into bands
     * where that key stays within {@link #BAND_RATIO} of the band's first, with the band's largest dispersion: a
     * bound on the nonzero probability of every gene in the band, see {@link RowSampler#select}.
     */
    final int[][] order;

    final int[][] bandStart;
    final double[][] bandKey;
    final int[][] bandLog2Dispersion;
    /** Mean library size (expected counts per cell), calibrated to the target nonzeros per cell. */
    final double depth;

    CountModel(SynthSpec spec) {
        this.spec = spec;
        int g = spec.genes();
        int t = spec.cellTypes();
        int d = spec.donors();
        SplittableRandom rng = new SplittableRandom(mix64(spec.seed()));

        mtPosition = new int[SynthSpec.MT_GENES.length];
        boolean[] mt = new boolean[g];
        for (int m = 0; m < SynthSpec.MT_GENES.length; m++) {
            mtPosition[m] = (int) ((2L * m + 1) * g / (2L * SynthSpec.MT_GENES.length));
            mt[mtPosition[m]] = true;
        }
        int[] other = new int[g - SynthSpec.MT_GENES.length];
        for (int i = 0, k = 0; i < g; i++) {
            if (!mt[i]) {
                other[k++] = i;
            }
        }
        geneNames = new String[g];
        geneIds = new String[g];
        int width = Math.max(5, Integer.toString(other.length).length());
        for (int k = 0; k < other.length; k++) {
            geneNames[other[k]] = "GENE" + pad(k + 1, width);
        }
        for (int m = 0; m < SynthSpec.MT_GENES.length; m++) {
            geneNames[mtPosition[m]] = SynthSpec.MT_GENES[m];
        }
        for (int i = 0; i < g; i++) {
            geneIds[i] = "ENSG" + pad(i + 1, 11);
        }

        double[] base = new double[g];
        for (int i : other) {
            base[i] = StrictMath.exp(GENE_SIGMA * rng.nextGaussian());
        }
        double[] mtWeight = new double[SynthSpec.MT_GENES.length];
        for (int m = 0; m < mtWeight.length; m++) {
            mtWeight[m] = StrictMath.exp(MT_GENE_SIGMA * rng.nextGaussian());
        }
        normalize(mtWeight, MT_SHARE);

        int[] shuffled = other.clone();
        for (int i = shuffled.length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int tmp = shuffled[i];
            shuffled[i] = shuffled[j];
            shuffled[j] = tmp;
        }
        int programSize = (int) Math.max(1, Math.min(Math.round(PROGRAM_FRACTION * other.length), other.length / t));
        program = new int[t][];
        weight = new double[t][];
        for (int type = 0; type < t; type++) {
            program[type] = Arrays.copyOfRange(shuffled, type * programSize, (type + 1) * programSize);
            Arrays.sort(program[type]);
            double[] w = base.clone();
            for (int i : program[type]) {
                w[i] *= PROGRAM_FOLD * StrictMath.exp(PROGRAM_SIGMA * rng.nextGaussian());
            }
            normalize(w, 1 - MT_SHARE);
            for (int m = 0; m < mtWeight.length; m++) {
                w[mtPosition[m]] = mtWeight[m];
            }
            weight[type] = w;
        }

        typeCumulative = new double[t];
        double sum = 0;
        for (int type = 0; type < t; type++) {
            sum += StrictMath.exp(TYPE_SIGMA * rng.nextGaussian());
            typeCumulative[type] = sum;
        }
        for (int type = 0; type < t; type++) {
            typeCumulative[type] /= sum;
        }

        donorEffect = new double[d][g];
        double[] maxEffect = new double[g];
        for (int i = 0; i < g; i++) {
            double mean = 0;
            for (int k = 0; k < d; k++) {
                double z = Math.max(-2, Math.min(2, rng.nextGaussian()));
                donorEffect[k][i] = StrictMath.exp(DONOR_SIGMA * z);
                mean += donorEffect[k][i] / d;
            }
            for (int k = 0; k < d; k++) {
                donorEffect[k][i] /= mean;
                maxEffect[i] = Math.max(maxEffect[i], donorEffect[k][i]);
            }
        }
        donorDepth = new double[d];
        for (int k = 0; k < d; k++) {
            donorDepth[k] = StrictMath.exp(DONOR_DEPTH_SIGMA * rng.nextGaussian());
        }
        normalize(donorDepth, d);

        dispersion = new double[g];
        log2Dispersion = new int[g];
        for (int i = 0; i < g; i++) {
            long k = Math.round(MEDIAN_LOG2_DISPERSION + LOG2_DISPERSION_SIGMA * rng.nextGaussian());
            log2Dispersion[i] = (int) Math.max(MIN_LOG2_DISPERSION, Math.min(MAX_LOG2_DISPERSION, k));
            dispersion[i] = Math.scalb(1.0, log2Dispersion[i]);
        }

        order = new int[t][];
        bandStart = new int[t][];
        bandKey = new double[t][];
        bandLog2Dispersion = new int[t][];
        for (int type = 0; type < t; type++) {
            band(type, other, maxEffect);
        }
        depth = calibrate();
    }

    private void band(int type, int[] genes, double[] maxEffect) {
        double[] w = weight[type];
        Integer[] boxed = new Integer[genes.length];
        for (int k = 0; k < genes.length; k++) {
            boxed[k] = genes[k];
        }
        Arrays.sort(boxed, (a, b) -> {
            int c = Double.compare(w[b] * maxEffect[b], w[a] * maxEffect[a]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        int[] o = new int[genes.length];
        int[] starts = new int[genes.length + 1];
        double[] keys = new double[genes.length];
        int[] rs = new int[genes.length];
        int bands = 0;
        for (int k = 0; k < o.length; k++) {
            int gene = boxed[k];
            o[k] = gene;
            double key = w[gene] * maxEffect[gene];
            if (bands == 0 || key < keys[bands - 1] / BAND_RATIO) {
                starts[bands] = k;
                keys[bands] = key;
                rs[bands] = MIN_LOG2_DISPERSION;
                bands++;
            }
            rs[bands - 1] = Math.max(rs[bands - 1], log2Dispersion[gene]);
        }
        starts[bands] = o.length;
        order[type] = o;
        bandStart[type] = Arrays.copyOf(starts, bands + 1);
        bandKey[type] = Arrays.copyOf(keys, bands);
        bandLog2Dispersion[type] = Arrays.copyOf(rs, bands);
    }

    /** The mean library size that gives {@code nnzPerCell} expected nonzeros, averaged over types and sizes. */
    private double calibrate() {
        double target = spec.nnzPerCell();
        // a cell has at most as many nonzeros as counts, so the depth is at least the target
        double lo = target;
        double hi = 2 * target;
        while (expectedNnz(hi) < target) {
            lo = hi;
            hi *= 2;
        }
        while (hi - lo > 1e-4 * lo) {
            double mid = 0.5 * (lo + hi);
            if (expectedNnz(mid) < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    private double expectedNnz(double depth) {
        double total = 0;
        for (int type = 0; type < weight.length; type++) {
            double p = typeCumulative[type] - (type == 0 ? 0 : typeCumulative[type - 1]);
            double[] w = weight[type];
            double sum = 0;
            for (double z : LIBRARY_NODES) {
                double library = depth * StrictMath.exp(LIBRARY_SIGMA * z - LIBRARY_SIGMA * LIBRARY_SIGMA / 2);
                for (int i = 0; i < w.length; i++) {
                    sum += 1 - zeroProbability(library * w[i], log2Dispersion[i]);
                }
            }
            total += p * sum / LIBRARY_NODES.length;
        }
        return total;
    }

    /** The random stream of one row: a function of the seed and the row only. */
    SplittableRandom rowRandom(long row) {
        return new SplittableRandom(mix64(mix64(spec.seed() ^ 0x9E3779B97F4A7C15L) + row * 0xBF58476D1CE4E5B9L));
    }

    /** A row's first draws: its cell type and donor, returned as {@code type * donors + donor}. */
    int drawCell(SplittableRandom rng) {
        double u = rng.nextDouble();
        int type = 0;
        while (type < typeCumulative.length - 1 && u >= typeCumulative[type]) {
            type++;
        }
        return type * spec.donors() + rng.nextInt(spec.donors());
    }

    /** NB probability of a zero count, {@code (r / (r + mean))^r} for {@code r = 2^log2r}, exact IEEE arithmetic. */
    static double zeroProbability(double mean, int log2r) {
        double r = Math.scalb(1.0, log2r);
        double p = r / (r + mean);
        if (log2r < 0) {
            return Math.sqrt(p);
        }
        for (int i = 0; i < log2r; i++) {
            p *= p;
        }
        return p;
    }

    static String pad(long value, int width) {
        String s = Long.toString(value);
        return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
    }

    private static void normalize(double[] a, double total) {
        double sum = 0;
        for (double v : a) {
            sum += v;
        }
        for (int i = 0; i < a.length; i++) {
            a[i] *= total / sum;
        }
    }

    /** The splitmix64 finalizer: a bijective mix of 64 bits. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
