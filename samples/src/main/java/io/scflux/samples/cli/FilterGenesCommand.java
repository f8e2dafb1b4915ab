/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import picocli.CommandLine.Command;

/** {@code scflux filter-genes}: scanpy's {@code pp.filter_genes} with one criterion (see {@link FilterCommand}). */
@Command(
        name = "filter-genes",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Keeps the genes with at least (at most) so many counts or cells expressing them, as scanpy's "
                    + "pp.filter_genes: one criterion per call; var n_counts (X's sum type) or n_cells (int64) is added. "
                    + "X, layers and varm are subset as they are written."
        })
final class FilterGenesCommand extends FilterCommand {

    @Override
    boolean cells() {
        return false;
    }
}
