/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.backend.Streaming;
import io.scflux.ops.Pseudobulk;
import io.scflux.ops.PseudobulkOptions;
import org.jspecify.annotations.NullUnmarked;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import reactor.core.publisher.Mono;

/**
 * {@code scflux pseudobulk}: decoupler's {@code pp.pseudobulk}, one profile per (group, sample) pair, written as a new
 * AnnData of pairs x genes; {@code --min-cells} and {@code --min-counts} filter the pairs as {@code filter_samples}.
 */
@Command(
        name = "pseudobulk",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Sums (or averages) the cells of every (group, sample) pair into one profile, as decoupler's "
                    + "pp.pseudobulk: rows {sample}_{group} ordered by group then sample, X dense float64, obs "
                    + "psbulk_cells and psbulk_counts, layers psbulk_props, and the obs columns constant within each pair.",
            "OUT holds the pseudobulk only (pairs x genes), not the input cells."
        })
@NullUnmarked // its nullness is not annotated yet: NullAway skips it
final class PseudobulkCommand extends OpCommand {

    @Option(names = "--sample-col", required = true, paramLabel = "COL", description = "obs column of the samples.")
    String sampleCol;

    @Option(
            names = "--groups-col",
            required = true,
            paramLabel = "COL",
            description = "obs column of the groups (e.g. cell types).")
    String groupsCol;

    @Option(
            names = "--mode",
            paramLabel = "sum|mean",
            defaultValue = "sum",
            description = "Aggregate of each gene over a pair's cells (default: ${DEFAULT-VALUE}).")
    PseudobulkOptions.Mode mode;

    @Option(
            names = "--min-cells",
            paramLabel = "N",
            defaultValue = "0",
            description = "Keep pairs with at least N cells (default: 0, no threshold).")
    int minCells;

    @Option(
            names = "--min-counts",
            paramLabel = "N",
            defaultValue = "0",
            description = "Keep pairs with at least N counts in total (default: 0, no threshold).")
    double minCounts;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return Pseudobulk.pseudobulk(
                data, new PseudobulkOptions(sampleCol, groupsCol, mode, minCells, minCounts), streaming);
    }

    @Override
    String shape(AnnData result) {
        return result.nObs() + " pseudobulk profiles x " + result.nVars() + " genes";
    }
}
