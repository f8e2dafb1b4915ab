/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.ops.concat.Concat;
import io.scflux.ops.concat.ConcatOptions;
import io.scflux.ops.filter.FilterOptions;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.leiden.Leiden;
import io.scflux.ops.leiden.LeidenOptions;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.markers.RankGenesGroups;
import io.scflux.ops.markers.RankGenesGroupsOptions;
import io.scflux.ops.neighbors.NeighborsOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.pseudobulk.PseudobulkOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.scale.ScaleOptions;
import io.scflux.ops.umap.Umap;
import io.scflux.ops.umap.UmapOptions;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Every step scflux offers, once: scanpy's function name, the command line's name, its parameters (declared by its
 * options record) and the call that runs it. The command line's step options, the service's steps and their JSON
 * parameters, and the Python package's checks are made from this list (the Python package reads it as the JSON
 * {@code scflux steps --json} prints), so that adding a parameter touches its options record, its kernel and its
 * tests only.
 */
public final class StepCatalog {

    private static final List<CatalogStep> STEPS = List.of(
            CatalogStep.combining(
                            "concat",
                            "concat",
                            "anndata's concat along obs: the cells of several inputs, in order, as one container.",
                            ConcatOptions.PARAMETERS,
                            ConcatOptions::from,
                            Concat::concat)
                    .adding(
                            a -> a.has(ConcatOptions.LABEL) ? List.of(a.require(ConcatOptions.LABEL)) : List.of(),
                            a -> List.of()),
            CatalogStep.of(
                            "calculate_qc_metrics",
                            "qc",
                            "scanpy's calculate_qc_metrics: the qc columns of obs and var, in one pass over X.",
                            QcMetricsOptions.PARAMETERS,
                            QcMetricsOptions::from,
                            Pp::calculateQcMetrics)
                    .adding(
                            a -> List.of("n_genes_by_counts", "total_counts"),
                            a -> List.of("n_cells_by_counts", "mean_counts", "pct_dropout_by_counts", "total_counts")),
            CatalogStep.of(
                            "filter_cells",
                            "filter-cells",
                            "scanpy's filter_cells: the cells passing one criterion.",
                            FilterOptions.CELL_PARAMETERS,
                            FilterOptions::cellsFrom,
                            Pp::filterCells)
                    .adding(a -> List.of("n_counts", "n_genes"), a -> List.of()),
            CatalogStep.of(
                            "filter_genes",
                            "filter-genes",
                            "scanpy's filter_genes: the genes passing one criterion.",
                            FilterOptions.GENE_PARAMETERS,
                            FilterOptions::genesFrom,
                            Pp::filterGenes)
                    .adding(a -> List.of(), a -> List.of("n_counts", "n_cells")),
            CatalogStep.of(
                            "normalize_total",
                            "normalize",
                            "scanpy's normalize_total: each cell scaled to the same total.",
                            NormalizeTotalOptions.PARAMETERS,
                            NormalizeTotalOptions::from,
                            Pp::normalizeTotal)
                    .adding(
                            a -> a.has(NormalizeTotalOptions.KEY_ADDED)
                                    ? List.of(a.get(NormalizeTotalOptions.KEY_ADDED))
                                    : List.of(),
                            a -> List.of()),
            CatalogStep.of(
                    "log1p",
                    "log1p",
                    "scanpy's log1p: X becomes log(1 + X).",
                    Log1pOptions.PARAMETERS,
                    Log1pOptions::from,
                    Pp::log1p),
            CatalogStep.of(
                            "highly_variable_genes",
                            "hvg",
                            "scanpy's highly_variable_genes: var highly_variable and the statistics behind it.",
                            HighlyVariableGenesOptions.PARAMETERS,
                            HighlyVariableGenesOptions::from,
                            Pp::highlyVariableGenes)
                    .adding(a -> List.of(), a -> List.of("highly_variable")),
            CatalogStep.of(
                    "scale",
                    "scale",
                    "scanpy's scale: each gene to unit variance and zero mean.",
                    ScaleOptions.PARAMETERS,
                    ScaleOptions::from,
                    Pp::scale),
            CatalogStep.of(
                    "pca",
                    "pca",
                    "scanpy's pca: obsm X_pca, varm PCs and uns pca.",
                    PcaOptions.PARAMETERS,
                    PcaOptions::from,
                    Pp::pca),
            CatalogStep.of(
                    "neighbors",
                    "neighbors",
                    "scanpy's neighbors: the kNN graph of obsm X_pca, obsp distances and connectivities.",
                    NeighborsOptions.PARAMETERS,
                    NeighborsOptions::from,
                    Pp::neighbors),
            CatalogStep.of(
                    "umap",
                    "umap",
                    "scanpy's tl.umap: a map of the neighbors' graph, obsm X_umap.",
                    UmapOptions.PARAMETERS,
                    UmapOptions::from,
                    Umap::umap),
            CatalogStep.of(
                            "leiden",
                            "leiden",
                            "scanpy's tl.leiden (igraph's flavor): clusters of the neighbors' graph, obs leiden.",
                            LeidenOptions.PARAMETERS,
                            LeidenOptions::from,
                            Leiden::leiden)
                    .adding(a -> List.of(a.require(LeidenOptions.KEY_ADDED)), a -> List.of()),
            CatalogStep.of(
                    "rank_genes_groups",
                    "rank-genes-groups",
                    "scanpy's tl.rank_genes_groups: marker genes of each group, in uns rank_genes_groups.",
                    RankGenesGroupsOptions.PARAMETERS,
                    RankGenesGroupsOptions::from,
                    RankGenesGroups::rankGenesGroups),
            CatalogStep.of(
                    "pseudobulk",
                    "pseudobulk",
                    "decoupler's pp.pseudobulk: one profile per (group, sample) pair, a new container.",
                    PseudobulkOptions.PARAMETERS,
                    PseudobulkOptions::from,
                    Pp::pseudobulk));

    private StepCatalog() {}

    /** @return every step, in the order of a typical analysis */
    public static List<CatalogStep> steps() {
        return STEPS;
    }

    /**
     * @param function scanpy's function name, e.g. {@code highly_variable_genes}
     * @return that step, or null when the catalog has none of that name
     */
    public static @Nullable CatalogStep byFunction(String function) {
        return STEPS.stream()
                .filter(s -> s.function().equals(function))
                .findFirst()
                .orElse(null);
    }

    /**
     * @param command the command line's name, e.g. {@code hvg}
     * @return that step, or null when the catalog has none of that name
     */
    public static @Nullable CatalogStep byCommand(String command) {
        return STEPS.stream()
                .filter(s -> s.command().equals(command))
                .findFirst()
                .orElse(null);
    }
}
