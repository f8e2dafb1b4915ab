/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.synth;

import java.util.Objects;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * Draws the rows of a {@link CountModel}, one at a time, into scratch arrays it reuses (one sampler per thread).
 * {@link #select} draws the cell and which genes are nonzero; {@link #fill} then draws the counts. Selection uses no
 * draw that counting uses, so a row's nonzero count is known without drawing its values.
 */
final class RowSampler {

    /** Bound on the nonzero probability above which testing every gene of a band beats skipping through it. */
    private static final double DENSE_BAND = 0.5;

    private final CountModel model;
    private final int[] genes;
    private final double[] means;
    private final double[] zeros;
    /** Bit g set when gene g has a count in {@link #counts}: read back in gene order, without sorting. */
    private final long[] present;

    private final int[] counts;
    private @Nullable SplittableRandom rng;
    private int n;

    RowSampler(CountModel model) {
        this.model = model;
        int g = model.spec.genes();
        genes = new int[g];
        means = new double[g];
        zeros = new double[g];
        present = new long[(g + 63) >>> 6];
        counts = new int[g];
    }

    /**
     * Draws row {@code row}'s cell and nonzero genes; returns the number of nonzeros. Each gene is nonzero with its
     * NB probability {@code 1 - P(0)}. Genes are visited band by band ({@link CountModel#order}): in a band whose
     * bound {@code top} on that probability is high each gene is tested; in a sparse band the sampler jumps
     * geometrically from one Bernoulli({@code top}) success to the next and keeps a candidate with probability
     * (its own / {@code top}), so a row costs about its nonzeros, not its genes.
     */
    int select(long row) {
        CountModel m = model;
        SplittableRandom r = m.rowRandom(row);
        rng = r; // for fill
        int cell = m.drawCell(r);
        int type = cell / m.spec.donors();
        int donor = cell % m.spec.donors();
        double library = m.depth * m.donorDepth[donor] * lognormal(r, CountModel.LIBRARY_SIGMA);
        double mtLibrary = library * lognormal(r, CountModel.MT_CELL_SIGMA);
        double[] w = m.weight[type];
        double[] effect = m.donorEffect[donor];
        n = 0;
        for (int gene : m.mtPosition) {
            test(r, gene, mtLibrary * w[gene] * effect[gene], 1);
        }
        int[] order = m.order[type];
        int[] start = m.bandStart[type];
        double[] key = m.bandKey[type];
        int[] log2r = m.bandLog2Dispersion[type];
        for (int b = 0; b < key.length; b++) {
            double top = 1 - CountModel.zeroProbability(library * key[b], log2r[b]);
            if (top <= 0) {
                break;
            }
            int end = start[b + 1];
            if (top >= DENSE_BAND) {
                for (int k = start[b]; k < end; k++) {
                    int gene = order[k];
                    test(r, gene, library * w[gene] * effect[gene], 1);
                }
                continue;
            }
            double rate = -Math.log1p(-top);
            for (int k = start[b]; ; k++) {
                double skip = r.nextExponential() / rate;
                k = skip >= end - k ? end : k + (int) skip;
                if (k >= end) {
                    break;
                }
                int gene = order[k];
                test(r, gene, library * w[gene] * effect[gene], top);
            }
        }
        return n;
    }

    /** Keeps {@code gene} with probability (its nonzero probability / {@code bound}). */
    private void test(SplittableRandom r, int gene, double mean, double bound) {
        double zero = CountModel.zeroProbability(mean, model.log2Dispersion[gene]);
        if (r.nextDouble() * bound < 1 - zero) {
            genes[n] = gene;
            means[n] = mean;
            zeros[n] = zero;
            n++;
        }
    }

    private static double lognormal(SplittableRandom r, double sigma) {
        return StrictMath.exp(sigma * r.nextGaussian() - sigma * sigma / 2);
    }

    /**
     * Draws the counts of the genes {@link #select} chose (each from its NB conditioned on being nonzero, by
     * inversion) and writes them by ascending gene into {@code indices} and {@code values} from {@code offset}.
     */
    void fill(int[] indices, float[] values, int offset) {
        SplittableRandom r =
                Objects.requireNonNull(rng, "select draws the row's genes, and sets its random source, first");
        for (int i = 0; i < n; i++) {
            int gene = genes[i];
            counts[gene] = positiveCount(r, means[i], zeros[i], model.dispersion[gene]);
            present[gene >>> 6] |= 1L << gene;
        }
        int out = offset;
        for (int w = 0; w < present.length; w++) {
            for (long bits = present[w]; bits != 0; bits &= bits - 1) {
                int gene = (w << 6) + Long.numberOfTrailingZeros(bits);
                indices[out] = gene;
                values[out] = counts[gene];
                out++;
            }
            present[w] = 0;
        }
    }

    /** An NB(mean, r) count drawn given that it is at least 1, walking the distribution from 1 up. */
    private static int positiveCount(SplittableRandom random, double mean, double zero, double r) {
        double u = zero + (1 - zero) * (1 - random.nextDouble());
        double ratio = mean / (mean + r);
        double p = zero * r * ratio;
        double cdf = zero + p;
        int k = 1;
        while (cdf < u && p > 0) {
            p *= (k + r) / (k + 1) * ratio;
            k++;
            cdf += p;
        }
        return k;
    }
}
