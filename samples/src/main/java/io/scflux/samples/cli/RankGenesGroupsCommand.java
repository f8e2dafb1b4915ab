/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.ScfluxFormatException;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.markers.RankGenesGroupsOptions;
import io.scflux.ops.markers.RankGenesGroupsOptions.Method;
import io.scflux.ops.parameter.Arguments;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import reactor.core.publisher.Mono;

/**
 * {@code scflux rank-genes-groups}: scanpy's {@code tl.rank_genes_groups} on log-normalized X, writing the input plus
 * {@code uns["rank_genes_groups"]}, and with {@code --csv} the long table of the results.
 */
@Command(
        name = "rank-genes-groups",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Ranks the genes of each group of cells (marker genes) as scanpy's tl.rank_genes_groups does, "
                    + "on log-normalized X: a t-test or a Wilcoxon rank-sum test of each group against the rest of the "
                    + "cells (or a reference group), p-values adjusted over all genes, genes by score.",
            "OUT holds IN plus uns['rank_genes_groups'] (params; names, scores, logfoldchanges, pvals, pvals_adj, one "
                    + "field per group; pts and pts_rest with --pts), where sc.get.rank_genes_groups_df reads them."
        })
final class RankGenesGroupsCommand extends OpCommand {

    @Option(
            names = "--csv",
            paramLabel = "OUT.csv",
            description = "Also write the results as one table: group, rank, names, scores, logfoldchanges, pvals, "
                    + "pvals_adj, a row per group and gene.")
    Path csv;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        Arguments arguments = arguments();
        CatalogStep.Bound rank = bind(catalogStep(), arguments, data);
        if (csv != null) {
            GlobalOptions.target(spec, "--csv", csv, List.of(input));
        }
        if (data.nObs() == 0) {
            throw new ScfluxFormatException(
                    input.toString(),
                    "/obs",
                    "no cells: rank_genes_groups needs at least one group of --groupby "
                            + arguments.get(RankGenesGroupsOptions.GROUPBY) + " with two cells or more");
        }
        Mono<AnnData> ranked = rank.apply(data, streaming);
        return csv == null
                ? ranked
                : ranked.doOnNext(result -> MarkerTable.write(MarkerTable.results(result.uns()), csv));
    }

    /** The Wilcoxon test reads X again: a compressed X goes through the block cache. */
    @Override
    boolean rereadsX() {
        return Method.WILCOXON.scanpyName().equals(arguments().get(RankGenesGroupsOptions.METHOD));
    }
}
