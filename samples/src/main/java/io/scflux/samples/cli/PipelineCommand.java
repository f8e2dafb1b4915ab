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
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import io.scflux.ops.pca.PcaOptions;
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
                    + "large enough for the packed counts, X is read from the file once."
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
        return filtered.flatMap(d -> Pp.pipeline(
                d,
                PreprocessCommand.options(spec, arguments, d),
                HighlyVariableGenesOptions.defaults().withNTopGenes(nTopGenes),
                PcaOptions.defaults().withNComps(nComps),
                streaming));
    }

    @Override
    boolean rereadsX() {
        return true;
    }
}
