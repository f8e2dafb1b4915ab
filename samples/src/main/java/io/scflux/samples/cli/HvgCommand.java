/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.core.anndata.Selection;
import io.scflux.ops.hvg.HighlyVariableGenes;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/**
 * {@code scflux hvg}: scanpy's {@code pp.highly_variable_genes} on X (log-normalized data for seurat and
 * cell_ranger, counts for seurat_v3), writing the input plus the var columns and {@code uns["hvg"]} it adds.
 */
@Command(
        name = "hvg",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Annotates highly variable genes as scanpy's pp.highly_variable_genes does: var columns "
                    + "highly_variable, means, dispersions, dispersions_norm (seurat, cell_ranger; X log-normalized) or "
                    + "highly_variable_rank, means, variances, variances_norm (seurat_v3; X counts), and uns['hvg'].",
            "Without --n-top-genes, seurat and cell_ranger select by the mean and dispersion cut-offs and seurat_v3 "
                    + "takes the top 2000."
        })
final class HvgCommand extends OpCommand {

    @Option(
            names = "--flavor",
            paramLabel = "seurat|cell_ranger|seurat_v3",
            defaultValue = "seurat",
            description = "How genes are ranked (default: ${DEFAULT-VALUE}).")
    String flavor;

    @Option(
            names = "--n-top-genes",
            paramLabel = "N",
            description = "Number of highly variable genes to select, at least 1 (default: none; seurat_v3: 2000).")
    Integer nTopGenes;

    @Option(
            names = "--batch-key",
            paramLabel = "COL",
            description = "Select within each batch of this obs column, then merge as scanpy does.")
    String batchKey;

    @Option(
            names = "--n-bins",
            paramLabel = "N",
            defaultValue = "20",
            description = "Bins of mean expression the dispersions are normalized in (seurat; default: "
                    + "${DEFAULT-VALUE}).")
    int nBins;

    @Option(
            names = "--min-mean",
            paramLabel = "X",
            defaultValue = "0.0125",
            description = "Cut-off: mean above this (default: ${DEFAULT-VALUE}).")
    double minMean;

    @Option(
            names = "--max-mean",
            paramLabel = "X",
            defaultValue = "3",
            description = "Cut-off: mean below this (default: ${DEFAULT-VALUE}).")
    double maxMean;

    @Option(
            names = "--min-disp",
            paramLabel = "X",
            defaultValue = "0.5",
            description = "Cut-off: normalized dispersion above this (default: ${DEFAULT-VALUE}).")
    double minDisp;

    @Option(
            names = "--max-disp",
            paramLabel = "X",
            defaultValue = "Infinity",
            description = "Cut-off: normalized dispersion below this (default: ${DEFAULT-VALUE}).")
    double maxDisp;

    @Option(
            names = "--span",
            paramLabel = "F",
            defaultValue = "0.3",
            description = "Fraction of genes in each LOESS fit (seurat_v3; default: ${DEFAULT-VALUE}).")
    double span;

    @Option(
            names = "--subset",
            description = "Keep only the highly variable genes (scanpy's subset=True): X, var and varm are subset as "
                    + "they are written.")
    boolean subset;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        HighlyVariableGenesOptions options;
        try {
            options = HighlyVariableGenesOptions.defaults()
                    .withFlavor(HighlyVariableGenesOptions.Flavor.of(flavor))
                    .withBatchKey(batchKey)
                    .withNBins(nBins)
                    .withCutoffs(minMean, maxMean, minDisp, maxDisp)
                    .withSpan(span);
            if (nTopGenes != null) {
                options = options.withNTopGenes(nTopGenes);
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (batchKey != null && !data.obs().has(batchKey)) {
            throw new MissingColumnException(input + ": --batch-key " + batchKey + " is not an obs column (columns: "
                    + String.join(", ", data.obs().columns().keySet()) + ")");
        }
        Mono<AnnData> annotated = HighlyVariableGenes.highlyVariableGenes(data, options, streaming);
        return subset
                ? annotated.map(d -> d.subset(Selection.all(), Selection.mask((boolean[])
                        ((ArrayColumn) d.var().column("highly_variable"))
                                .values()
                                .data())))
                : annotated;
    }

    @Override
    boolean rereadsX() {
        return true;
    }
}
