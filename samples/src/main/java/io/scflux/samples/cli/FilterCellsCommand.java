/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import picocli.CommandLine.Command;

/** {@code scflux filter-cells}: scanpy's {@code pp.filter_cells} with one criterion (see {@link FilterCommand}). */
@Command(
        name = "filter-cells",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Keeps the cells with at least (at most) so many counts or genes expressed, as scanpy's "
                    + "pp.filter_cells: one criterion per call; obs n_counts (X's sum type) or n_genes (int64) is added. "
                    + "X, layers and obsm are subset as they are written (one pass counts, the write reads the kept "
                    + "cells)."
        })
final class FilterCellsCommand extends FilterCommand {

    @Override
    boolean cells() {
        return true;
    }
}
