/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import io.scflux.core.InvalidOptionException;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link RankGenesGroups#rankGenesGroups}, as scanpy's {@code sc.tl.rank_genes_groups(adata,
 * groupby, method, groups, reference, n_genes, pts, corr_method, tie_correct, layer)} with {@code use_raw=False}.
 *
 * @param groupby    obs column of the groups (categorical, or strings)
 * @param method     the test
 * @param groups     the groups to rank genes for, in this order; null for all (scanpy's {@code "all"})
 * @param reference  {@code "rest"} (each group against every other cell) or the group compared with
 * @param nGenes     genes kept per group, best first; null for all
 * @param pts        also the fraction of each group's cells (and of the rest's) where a gene is not zero
 * @param corrMethod how p-values are adjusted for the number of genes
 * @param tieCorrect wilcoxon's tie correction of the rank-sum variance
 * @param layer      the layer tested instead of X; null for X
 */
public record RankGenesGroupsOptions(
        String groupby,
        Method method,
        @Nullable List<String> groups,
        String reference,
        @Nullable Integer nGenes,
        boolean pts,
        CorrMethod corrMethod,
        boolean tieCorrect,
        @Nullable String layer) {

    /** scanpy's {@code reference} that compares each group with all other cells. */
    public static final String REST = "rest";

    /** The tests of scanpy's {@code method}. */
    public enum Method {
        /** Welch's t-test on each group against the rest (scanpy's default). */
        T_TEST("t-test"),
        /** Welch's t-test with the rest's variance weighted as if the rest had as many cells as the group. */
        T_TEST_OVERESTIM_VAR("t-test_overestim_var"),
        /** The Wilcoxon rank-sum test, by its normal approximation. */
        WILCOXON("wilcoxon");

        private final String scanpyName;

        Method(String scanpyName) {
            this.scanpyName = scanpyName;
        }

        /** The name scanpy uses. */
        public String scanpyName() {
            return scanpyName;
        }

        /** The method scanpy calls {@code name}. */
        public static Method of(String name) {
            for (Method m : values()) {
                if (m.scanpyName.equals(name)) {
                    return m;
                }
            }
            throw new InvalidOptionException("unknown method " + name + ": expected t-test, t-test_overestim_var "
                    + "or wilcoxon (logreg is not supported)");
        }
    }

    /** The p-value corrections of scanpy's {@code corr_method}. */
    public enum CorrMethod {
        /** Benjamini-Hochberg's false discovery rate, over all genes (statsmodels' {@code fdr_bh}). */
        BENJAMINI_HOCHBERG("benjamini-hochberg"),
        /** Each p-value times the number of genes, at most 1. */
        BONFERRONI("bonferroni");

        private final String scanpyName;

        CorrMethod(String scanpyName) {
            this.scanpyName = scanpyName;
        }

        /** The name scanpy uses. */
        public String scanpyName() {
            return scanpyName;
        }

        /** The correction scanpy calls {@code name}. */
        public static CorrMethod of(String name) {
            for (CorrMethod c : values()) {
                if (c.scanpyName.equals(name)) {
                    return c;
                }
            }
            throw new InvalidOptionException(
                    "unknown corr_method " + name + ": expected benjamini-hochberg or bonferroni");
        }

        /**
         * The adjusted p-values of {@code p} (one per gene, every gene), as scanpy adjusts them: statsmodels'
         * Benjamini-Hochberg (each p-value sorted ascending divided by its rank over n, the running minimum from the
         * largest, at most 1) or {@code min(p * n, 1)}.
         */
        double[] adjust(double[] p) {
            int n = p.length;
            double[] out = new double[n];
            if (this == BONFERRONI) {
                for (int g = 0; g < n; g++) {
                    out[g] = Math.min(p[g] * n, 1.0);
                }
                return out;
            }
            double[] sorted = p.clone();
            Arrays.sort(sorted);
            double[] corrected = new double[n];
            double min = Double.POSITIVE_INFINITY;
            for (int i = n - 1; i >= 0; i--) {
                min = Math.min(min, sorted[i] / ((i + 1) / (double) n));
                corrected[i] = Math.min(min, 1.0);
            }
            // equal p-values get equal corrections (the running minimum reaches the last of them), so any will do
            for (int g = 0; g < n; g++) {
                out[g] = corrected[Arrays.binarySearch(sorted, p[g])];
            }
            return out;
        }
    }

    /** scanpy's {@code groupby}. */
    public static final Parameter<String> GROUPBY = Parameter.obsColumn(
                    "groupby", "obs column of the groups (categorical, or strings).")
            .required();

    /** scanpy's {@code groups}: all when unset (scanpy's {@code "all"}). */
    public static final Parameter<List<String>> GROUPS =
            Parameter.strings("groups", null, "The groups to rank genes for, in this order (default: all).");

    /** scanpy's {@code reference}. */
    public static final Parameter<String> REFERENCE =
            Parameter.text("reference", REST, "The group each group is compared with (rest: all other cells).");

    /** scanpy's {@code n_genes}. */
    public static final Parameter<Integer> N_GENES = Parameter.integer(
                    "n_genes", null, "Genes kept per group, best first (default: all).")
            .atLeast(1);

    /** scanpy's {@code pts}. */
    public static final Parameter<Boolean> PTS = Parameter.bool(
            "pts",
            false,
            "Also the fraction of each group's cells (pts) and of the rest's (pts_rest) where each gene is not zero.");

    /** scanpy's {@code method}, of the tests scflux has. */
    public static final Parameter<String> METHOD = Parameter.choice(
                    "method",
                    Method.T_TEST.scanpyName(),
                    Arrays.stream(Method.values()).map(Method::scanpyName).toList(),
                    "The test. wilcoxon reads X once more, its non-zero values going to the cache folder 8 bytes each when "
                            + "they exceed 128 MiB.")
            .unsupported("logreg");

    /** scanpy's {@code corr_method}. */
    public static final Parameter<String> CORR_METHOD = Parameter.choice(
            "corr_method",
            CorrMethod.BENJAMINI_HOCHBERG.scanpyName(),
            Arrays.stream(CorrMethod.values()).map(CorrMethod::scanpyName).toList(),
            "How p-values are adjusted for the number of genes.");

    /** scanpy's {@code tie_correct}. */
    public static final Parameter<Boolean> TIE_CORRECT =
            Parameter.bool("tie_correct", false, "Tie correction of the Wilcoxon test's variance.");

    /** scanpy's {@code layer}. */
    public static final Parameter<String> LAYER = Parameter.text("layer", null, "Test this layer instead of X.");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS =
            List.of(GROUPBY, GROUPS, REFERENCE, N_GENES, PTS, METHOD, CORR_METHOD, TIE_CORRECT, LAYER);

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names ({@code groupby} among them)
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static RankGenesGroupsOptions from(Arguments arguments) {
        return new RankGenesGroupsOptions(
                arguments.require(GROUPBY),
                Method.of(arguments.require(METHOD)),
                arguments.get(GROUPS),
                arguments.require(REFERENCE),
                arguments.get(N_GENES),
                arguments.require(PTS),
                CorrMethod.of(arguments.require(CORR_METHOD)),
                arguments.require(TIE_CORRECT),
                arguments.get(LAYER));
    }

    public RankGenesGroupsOptions {
        Objects.requireNonNull(groupby, "groupby");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(corrMethod, "corrMethod");
        if (groups != null) {
            if (groups.isEmpty()) {
                throw new InvalidParameterException(GROUPS.name(), "groups must name at least one group (or be all)");
            }
            groups = List.copyOf(groups);
        }
        N_GENES.check(nGenes);
    }

    /** scanpy's defaults: t-test of every group of {@code groupby} against the rest, all genes, Benjamini-Hochberg. */
    public static RankGenesGroupsOptions of(String groupby) {
        return from(Arguments.of(Map.of(GROUPBY.name(), groupby)));
    }

    public RankGenesGroupsOptions withMethod(Method m) {
        return new RankGenesGroupsOptions(groupby, m, groups, reference, nGenes, pts, corrMethod, tieCorrect, layer);
    }

    /** The groups to rank genes for, in this order; null for all. */
    public RankGenesGroupsOptions withGroups(List<String> g) {
        return new RankGenesGroupsOptions(groupby, method, g, reference, nGenes, pts, corrMethod, tieCorrect, layer);
    }

    /** {@link #REST} or a group. */
    public RankGenesGroupsOptions withReference(String r) {
        return new RankGenesGroupsOptions(groupby, method, groups, r, nGenes, pts, corrMethod, tieCorrect, layer);
    }

    /** Genes kept per group; null for all. */
    public RankGenesGroupsOptions withNGenes(Integer n) {
        return new RankGenesGroupsOptions(groupby, method, groups, reference, n, pts, corrMethod, tieCorrect, layer);
    }

    public RankGenesGroupsOptions withPts(boolean p) {
        return new RankGenesGroupsOptions(groupby, method, groups, reference, nGenes, p, corrMethod, tieCorrect, layer);
    }

    public RankGenesGroupsOptions withCorrMethod(CorrMethod c) {
        return new RankGenesGroupsOptions(groupby, method, groups, reference, nGenes, pts, c, tieCorrect, layer);
    }

    public RankGenesGroupsOptions withTieCorrect(boolean t) {
        return new RankGenesGroupsOptions(groupby, method, groups, reference, nGenes, pts, corrMethod, t, layer);
    }

    /** The layer tested instead of X; null for X. */
    public RankGenesGroupsOptions withLayer(String l) {
        return new RankGenesGroupsOptions(groupby, method, groups, reference, nGenes, pts, corrMethod, tieCorrect, l);
    }

    /** Whether each group is compared with all other cells rather than with one group. */
    boolean againstRest() {
        return REST.equals(reference);
    }
}
