/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import picocli.CommandLine.Command;

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
final class PseudobulkCommand extends OpCommand {

    @Override
    String shape(AnnData result) {
        return result.nObs() + " pseudobulk profiles x " + result.nVars() + " genes";
    }
}
