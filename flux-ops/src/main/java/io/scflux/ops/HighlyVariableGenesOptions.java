/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link HighlyVariableGenes}, named and defaulted as scanpy's {@code highly_variable_genes}:
 * {@code nTopGenes} 0 means unset (select by the mean and dispersion cut-offs instead; seurat_v3 then takes 2000),
 * which {@link #withNTopGenes} never sets, {@code batchKey} null means no batches.
 */
public record HighlyVariableGenesOptions(
        Flavor flavor,
        int nTopGenes,
        double minMean,
        double maxMean,
        double minDisp,
        double maxDisp,
        int nBins,
        double span,
        @Nullable String batchKey) {

    /** scanpy's default when seurat_v3 is asked for without {@code n_top_genes}. */
    public static final int SEURAT_V3_DEFAULT_TOP_GENES = 2000;

    /** scanpy's defaults: flavor seurat, cut-offs mean in (0.0125, 3), normalized dispersion in (0.5, inf). */
    private static final HighlyVariableGenesOptions DEFAULT =
            new HighlyVariableGenesOptions(Flavor.SEURAT, 0, 0.0125, 3, 0.5, Double.POSITIVE_INFINITY, 20, 0.3, null);

    /** scanpy's defaults. */
    public static HighlyVariableGenesOptions defaults() {
        return DEFAULT;
    }

    /** How genes are ranked. */
    public enum Flavor {
        /** Dispersions of the un-logged data, normalized per bin of log mean (Seurat's mean.var.plot). */
        SEURAT("seurat"),
        /** Dispersions normalized by median and MAD per percentile bin of mean (Cell Ranger). */
        CELL_RANGER("cell_ranger"),
        /** Seurat's vst on counts: variance standardized by a LOESS fit of log variance on log mean. */
        SEURAT_V3("seurat_v3");

        private final String scanpyName;

        Flavor(String scanpyName) {
            this.scanpyName = scanpyName;
        }

        /** The name scanpy uses ({@code seurat}, {@code cell_ranger}, {@code seurat_v3}). */
        public String scanpyName() {
            return scanpyName;
        }

        /** The flavor scanpy calls {@code name}. */
        public static Flavor of(String name) {
            for (Flavor f : values()) {
                if (f.scanpyName.equals(name)) {
                    return f;
                }
            }
            throw new InvalidOptionException(
                    "unknown flavor " + name + ": expected seurat, cell_ranger or " + "seurat_v3");
        }
    }

    public HighlyVariableGenesOptions {
        if (flavor == null) {
            throw new InvalidOptionException("flavor is required");
        }
        if (nTopGenes < 0) {
            throw new InvalidOptionException("n_top_genes must be positive (or 0 for none), got " + nTopGenes);
        }
        if (nBins < 1) {
            throw new InvalidOptionException("n_bins must be at least 1, got " + nBins);
        }
        if (!(span > 0)) {
            throw new InvalidOptionException("span must be positive, got " + span);
        }
    }

    public HighlyVariableGenesOptions withFlavor(Flavor f) {
        return new HighlyVariableGenesOptions(f, nTopGenes, minMean, maxMean, minDisp, maxDisp, nBins, span, batchKey);
    }

    /**
     * Selects the {@code n} most variable genes instead of those within the cut-offs.
     *
     * @param n how many genes to select, at least 1 (scanpy's {@code n_top_genes}; leave it unset for the cut-offs)
     * @return these options with {@code n}
     */
    public HighlyVariableGenesOptions withNTopGenes(int n) {
        if (n < 1) {
            throw new InvalidOptionException(
                    "n_top_genes must be at least 1, got " + n + " (leave it unset to select by the cut-offs)");
        }
        return new HighlyVariableGenesOptions(flavor, n, minMean, maxMean, minDisp, maxDisp, nBins, span, batchKey);
    }

    /** The cut-offs used when {@code nTopGenes} is 0: {@code minMean < mean < maxMean}, same for the dispersion. */
    public HighlyVariableGenesOptions withCutoffs(
            double minMeanValue, double maxMeanValue, double minDispValue, double maxDispValue) {
        return new HighlyVariableGenesOptions(
                flavor, nTopGenes, minMeanValue, maxMeanValue, minDispValue, maxDispValue, nBins, span, batchKey);
    }

    public HighlyVariableGenesOptions withNBins(int n) {
        return new HighlyVariableGenesOptions(flavor, nTopGenes, minMean, maxMean, minDisp, maxDisp, n, span, batchKey);
    }

    public HighlyVariableGenesOptions withSpan(double s) {
        return new HighlyVariableGenesOptions(
                flavor, nTopGenes, minMean, maxMean, minDisp, maxDisp, nBins, s, batchKey);
    }

    /** Select per batch of the obs column {@code key} (null: no batches). */
    public HighlyVariableGenesOptions withBatchKey(String key) {
        return new HighlyVariableGenesOptions(flavor, nTopGenes, minMean, maxMean, minDisp, maxDisp, nBins, span, key);
    }

    /** True when genes are selected by count rather than by the cut-offs. */
    boolean byCount() {
        return nTopGenes > 0 || flavor == Flavor.SEURAT_V3;
    }

    /** The number of genes to select (seurat_v3 without one: scanpy's 2000). */
    int topGenes() {
        return nTopGenes > 0 ? nTopGenes : SEURAT_V3_DEFAULT_TOP_GENES;
    }
}
