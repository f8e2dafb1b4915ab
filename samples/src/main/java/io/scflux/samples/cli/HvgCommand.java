/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Selection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
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
            names = "--subset",
            description = "Keep only the highly variable genes (scanpy's subset=True): X, var and varm are subset as "
                    + "they are written.")
    boolean subset;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        Mono<AnnData> annotated = bind(catalogStep(), arguments(), data).apply(data, streaming);
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
