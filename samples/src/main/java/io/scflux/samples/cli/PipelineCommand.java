/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.Pp;
import io.scflux.ops.filter.FilterOptions;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.leiden.Leiden;
import io.scflux.ops.leiden.LeidenOptions;
import io.scflux.ops.neighbors.NeighborsOptions;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.umap.Umap;
import io.scflux.ops.umap.UmapOptions;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/** {@code scflux pipeline}: preprocess, seurat highly variable genes, PCA on them ({@link Pp#pipeline}). */
@Command(
        name = "pipeline",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "The standard preprocessing in one command: qc + normalize_total + log1p in one pass, "
                    + "highly variable genes (flavor seurat), and PCA on them. OUT holds IN plus every column, obsm "
                    + "X_pca, varm PCs and uns entries these add, with X log-normalized.",
            "Passes over X: the qc pass, the HVG pass, the PCA covariance and projection passes; with --cache-mb "
                    + "large enough for the packed counts, X is read from the file once.",
            "--neighbors, --umap and --leiden go on to the tutorial's graph steps, on X_pca (computed once, kept in "
                    + "memory: cells x components floats), never X."
        })
final class PipelineCommand extends OpCommand {

    @Override
    public List<Parameter<?>> parameters() {
        return PreprocessCommand.PARAMETERS;
    }

    @Option(
            names = "--n-top-genes",
            paramLabel = "N",
            defaultValue = "2000",
            description = "Highly variable genes to keep (default: ${DEFAULT-VALUE}).")
    private int nTopGenes;

    @Option(
            names = "--n-comps",
            paramLabel = "N",
            defaultValue = "50",
            description = "Principal components (default: ${DEFAULT-VALUE}).")
    private int nComps;

    @Option(
            names = "--min-genes",
            paramLabel = "N",
            description = "First keep the cells expressing at least N genes (scanpy's filter_cells(min_genes=N)).")
    private Long minGenes;

    @Option(
            names = "--min-cells",
            paramLabel = "N",
            description = "Then keep the genes expressed in at least N of those cells (filter_genes(min_cells=N)), "
                    + "before QC, as in scanpy's tutorial.")
    private Long minCells;

    @Option(
            names = "--neighbors",
            description = "Then the neighbors' graph on X_pca, as sc.pp.neighbors with its defaults.")
    private boolean neighbors;

    @Option(
            names = "--umap",
            description = "Then the UMAP of that graph, as sc.tl.umap with its defaults (implies --neighbors).")
    private boolean umap;

    @Option(
            names = "--leiden",
            description = "Then its Leiden clusters, obs leiden, as sc.tl.leiden(flavor=\"igraph\", n_iterations=2) "
                    + "(implies --neighbors).")
    private boolean leiden;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        if (nTopGenes < 1 || nComps < 1) {
            throw new ParameterException(spec.commandLine(), "--n-top-genes and --n-comps must be at least 1");
        }
        Mono<AnnData> filtered = Mono.just(data);
        if (minGenes != null) {
            filtered = filtered.flatMap(d -> Pp.filterCells(d, FilterOptions.minGenes(minGenes), streaming));
        }
        if (minCells != null) {
            filtered = filtered.flatMap(d -> Pp.filterGenes(d, FilterOptions.minCells(minCells), streaming));
        }
        Arguments arguments = arguments();
        Mono<AnnData> out = filtered.flatMap(d -> Pp.pipeline(
                d,
                PreprocessCommand.options(spec, arguments, d),
                HighlyVariableGenesOptions.defaults().withNTopGenes(nTopGenes),
                PcaOptions.defaults().withNComps(nComps),
                streaming));
        if (neighbors || umap || leiden) {
            out = out.flatMap(d -> Pp.neighbors(d, NeighborsOptions.defaults(), streaming));
        }
        if (umap) {
            out = out.flatMap(d -> Umap.umap(d, UmapOptions.defaults(), streaming));
        }
        if (leiden) {
            out = out.flatMap(d -> Leiden.leiden(d, LeidenOptions.defaults(), streaming));
        }
        return out;
    }

    @Override
    boolean rereadsX() {
        return true;
    }
}
