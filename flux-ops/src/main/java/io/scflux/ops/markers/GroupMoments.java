/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import io.scflux.ops.moments.GeneSums;
import java.util.Arrays;

/**
 * The mean and variance (ddof 1) of every gene over a set of cells, and the fraction of them where it is not zero,
 * from per-label sums: what scanpy's rank_genes_groups takes of a group, of the rest of the cells or of the reference,
 * with its {@code _get_mean_var} arithmetic ({@code E[x^2] - E[x]^2}, times {@code n / (n - 1)}).
 *
 * @param n        the cells
 * @param mean     per gene
 * @param variance per gene
 * @param nonzero  per gene, the fraction of the cells where it is not zero (scanpy's {@code pts})
 */
record GroupMoments(long n, double[] mean, double[] variance, double[] nonzero) {

    /**
     * The cells of the labels {@code labels[l]} true, their sums added in label order ({@code sums} of
     * {@link GeneSums#nonzeroValues}, whose counts are of the values that are not zero).
     */
    static GroupMoments of(GeneSums.Sums sums, boolean[] labels) {
        int nGenes = sums.nGenes;
        long n = 0;
        for (int l = 0; l < labels.length; l++) {
            if (labels[l]) {
                n += sums.cells[l];
            }
        }
        double[] mean = new double[nGenes];
        double[] variance = new double[nGenes];
        double[] nonzero = new double[nGenes];
        double unbiased = n == 1 ? 1 : n / (double) (n - 1);
        for (int g = 0; g < nGenes; g++) {
            double sum = 0;
            double squares = 0;
            long counted = 0;
            for (int l = 0; l < labels.length; l++) {
                if (labels[l]) {
                    int at = l * nGenes + g;
                    sum += sums.sum[at];
                    squares += sums.sumSq[at];
                    counted += sums.positive[at];
                }
            }
            mean[g] = sum / n;
            variance[g] = (squares / n - mean[g] * mean[g]) * unbiased;
            nonzero[g] = counted / (double) n;
        }
        return new GroupMoments(n, mean, variance, nonzero);
    }

    /** The cells of label {@code label}. */
    static GroupMoments ofLabel(GeneSums.Sums sums, int label) {
        boolean[] labels = new boolean[sums.cells.length];
        labels[label] = true;
        return of(sums, labels);
    }

    /** Every cell but those of label {@code label}: scanpy's rest. */
    static GroupMoments allBut(GeneSums.Sums sums, int label) {
        boolean[] labels = new boolean[sums.cells.length];
        Arrays.fill(labels, true);
        labels[label] = false;
        return of(sums, labels);
    }
}
