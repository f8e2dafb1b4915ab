/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.ScfluxFormatException;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.ops.markers.RankGenesGroups;
import io.scflux.ops.markers.RankGenesGroupsOptions;
import io.scflux.ops.markers.RankGenesGroupsOptions.CorrMethod;
import io.scflux.ops.markers.RankGenesGroupsOptions.Method;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
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
            names = "--groupby",
            required = true,
            paramLabel = "COL",
            description = "obs column of the groups (categorical, or strings).")
    String groupby;

    @Option(
            names = "--method",
            paramLabel = "t-test|t-test_overestim_var|wilcoxon",
            defaultValue = "t-test",
            description = "The test (default: ${DEFAULT-VALUE}). wilcoxon reads X once more, its non-zero values "
                    + "going to the cache folder (SCFLUX_CACHE_DIR, else $TMPDIR/scflux-cache-<uid>) 8 bytes each "
                    + "when they exceed 128 MiB.")
    String method;

    @Option(
            names = "--groups",
            split = ",",
            paramLabel = "A,B",
            description = "The groups to rank genes for, in this order (default: all).")
    List<String> groups;

    @Option(
            names = "--reference",
            paramLabel = "REF",
            defaultValue = RankGenesGroupsOptions.REST,
            description = "The group each group is compared with (default: ${DEFAULT-VALUE}, all other cells).")
    String reference;

    @Option(names = "--n-genes", paramLabel = "N", description = "Genes kept per group, best first (default: all).")
    Integer nGenes;

    @Option(
            names = "--pts",
            description = "Also the fraction of each group's cells (pts) and of the rest's "
                    + "(pts_rest) where each gene is not zero.")
    boolean pts;

    @Option(
            names = "--corr-method",
            paramLabel = "benjamini-hochberg|bonferroni",
            defaultValue = "benjamini-hochberg",
            description = "How p-values are adjusted for the number of genes (default: ${DEFAULT-VALUE}).")
    String corrMethod;

    @Option(names = "--tie-correct", description = "Tie correction of the Wilcoxon test's variance.")
    boolean tieCorrect;

    @Option(names = "--layer", paramLabel = "NAME", description = "Test this layer instead of X.")
    String layer;

    @Option(
            names = "--csv",
            paramLabel = "OUT.csv",
            description = "Also write the results as one table: group, rank, names, scores, logfoldchanges, pvals, "
                    + "pvals_adj, a row per group and gene.")
    Path csv;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        RankGenesGroupsOptions options;
        try {
            options = RankGenesGroupsOptions.of(groupby)
                    .withMethod(Method.of(method))
                    .withGroups(groups)
                    .withReference(reference)
                    .withNGenes(nGenes)
                    .withPts(pts)
                    .withCorrMethod(CorrMethod.of(corrMethod))
                    .withTieCorrect(tieCorrect)
                    .withLayer(layer);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (csv != null) {
            Scflux.target(spec, "--csv", csv, List.of(input));
        }
        if (!data.obs().has(groupby)) {
            throw new MissingColumnException(input + ": --groupby " + groupby + " is not an obs column (columns: "
                    + String.join(", ", data.obs().columns().keySet()) + ")");
        }
        if (data.nObs() == 0) {
            throw new ScfluxFormatException(
                    input.toString(),
                    "/obs",
                    "no cells: rank_genes_groups needs at least " + "one group of --groupby " + groupby
                            + " with two cells or more");
        }
        Mono<AnnData> ranked = RankGenesGroups.rankGenesGroups(data, options, streaming);
        return csv == null
                ? ranked
                : ranked.doOnNext(result -> MarkerTable.write(MarkerTable.results(result.uns()), csv));
    }

    /** The Wilcoxon test reads X again: a compressed X goes through the block cache. */
    @Override
    boolean rereadsX() {
        return Method.WILCOXON.scanpyName().equals(method);
    }
}
