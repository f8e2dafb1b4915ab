/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import io.scflux.core.InvalidOptionException;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import java.util.Arrays;
import java.util.List;
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

    /** scanpy's {@code flavor}. */
    public static final Parameter<String> FLAVOR = Parameter.choice(
                    "flavor",
                    Flavor.SEURAT.scanpyName(),
                    Arrays.stream(Flavor.values()).map(Flavor::scanpyName).toList(),
                    "How genes are ranked.")
            .unsupported("seurat_v3_paper");

    /** scanpy's {@code n_top_genes}: unset selects by the cut-offs (seurat_v3: the top 2000). */
    public static final Parameter<Integer> N_TOP_GENES = Parameter.integer(
                    "n_top_genes",
                    null,
                    "Number of highly variable genes to select (default: none, the cut-offs select; seurat_v3: "
                            + SEURAT_V3_DEFAULT_TOP_GENES + ").")
            .atLeast(1);

    /** scanpy's {@code min_mean}. */
    public static final Parameter<Double> MIN_MEAN = Parameter.number("min_mean", 0.0125, "Cut-off: mean above this.");

    /** scanpy's {@code max_mean}. */
    public static final Parameter<Double> MAX_MEAN = Parameter.number("max_mean", 3.0, "Cut-off: mean below this.");

    /** scanpy's {@code min_disp}. */
    public static final Parameter<Double> MIN_DISP =
            Parameter.number("min_disp", 0.5, "Cut-off: normalized dispersion above this.");

    /** scanpy's {@code max_disp}. */
    public static final Parameter<Double> MAX_DISP =
            Parameter.number("max_disp", Double.POSITIVE_INFINITY, "Cut-off: normalized dispersion below this.");

    /** scanpy's {@code span}. */
    public static final Parameter<Double> SPAN = Parameter.number(
                    "span", 0.3, "Fraction of genes in each LOESS fit (seurat_v3).")
            .above(0);

    /** scanpy's {@code n_bins}. */
    public static final Parameter<Integer> N_BINS = Parameter.integer(
                    "n_bins", 20, "Bins of mean expression the dispersions are normalized in (seurat).")
            .atLeast(1);

    /** scanpy's {@code batch_key}. */
    public static final Parameter<String> BATCH_KEY =
            Parameter.obsColumn("batch_key", "Select within each batch of this obs column, then merge as scanpy does.");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS =
            List.of(N_TOP_GENES, MIN_DISP, MAX_DISP, MIN_MEAN, MAX_MEAN, SPAN, N_BINS, FLAVOR, BATCH_KEY);

    private static final HighlyVariableGenesOptions DEFAULT = from(Arguments.none());

    /** scanpy's defaults. */
    public static HighlyVariableGenesOptions defaults() {
        return DEFAULT;
    }

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static HighlyVariableGenesOptions from(Arguments arguments) {
        Integer n = arguments.get(N_TOP_GENES);
        return new HighlyVariableGenesOptions(
                Flavor.of(arguments.require(FLAVOR)),
                n == null ? 0 : n,
                arguments.require(MIN_MEAN),
                arguments.require(MAX_MEAN),
                arguments.require(MIN_DISP),
                arguments.require(MAX_DISP),
                arguments.require(N_BINS),
                arguments.require(SPAN),
                arguments.get(BATCH_KEY));
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
        N_BINS.check(nBins);
        SPAN.check(span);
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
        N_TOP_GENES.check(n);
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
