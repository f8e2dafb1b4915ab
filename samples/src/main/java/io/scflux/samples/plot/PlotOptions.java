/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import org.jspecify.annotations.Nullable;

/**
 * How a {@link Plot} is drawn: the obs column colouring the PCA scatter (null: one colour) and the genes shown per
 * group of the rank_genes_groups plot (scanpy's {@code n_genes}, 20 by default).
 */
public record PlotOptions(@Nullable String color, int nGenes) {

    /** One colour, 20 genes per group: scanpy's defaults. */
    public static final PlotOptions DEFAULT = new PlotOptions(null, 20);

    public PlotOptions {
        if (nGenes < 1) {
            throw new IllegalArgumentException("--n-genes " + nGenes + ": at least one gene per group");
        }
    }

    /** These options with the PCA coloured by {@code color}. */
    public PlotOptions withColor(@Nullable String color) {
        return new PlotOptions(color, nGenes);
    }

    /** These options with {@code nGenes} genes per group. */
    public PlotOptions withNGenes(int nGenes) {
        return new PlotOptions(color, nGenes);
    }
}
