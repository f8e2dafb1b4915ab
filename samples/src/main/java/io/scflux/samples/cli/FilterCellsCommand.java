/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.ops.FilterOptions;
import org.jspecify.annotations.NullUnmarked;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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
@NullUnmarked // its nullness is not annotated yet: NullAway skips it
final class FilterCellsCommand extends FilterCommand {

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Criterion criterion;

    /** scanpy's four parameters, exactly one given. */
    static final class Criterion {
        @Option(
                names = "--min-counts",
                required = true,
                paramLabel = "X",
                description = "Keep cells with at least X counts.")
        Double minCounts;

        @Option(
                names = "--min-genes",
                required = true,
                paramLabel = "N",
                description = "Keep cells expressing at least N genes.")
        Long minGenes;

        @Option(
                names = "--max-counts",
                required = true,
                paramLabel = "X",
                description = "Keep cells with at most X counts.")
        Double maxCounts;

        @Option(
                names = "--max-genes",
                required = true,
                paramLabel = "N",
                description = "Keep cells expressing at most N genes.")
        Long maxGenes;

        FilterOptions options() {
            return minCounts != null
                    ? FilterOptions.minCounts(minCounts)
                    : minGenes != null
                            ? FilterOptions.minGenes(minGenes)
                            : maxCounts != null ? FilterOptions.maxCounts(maxCounts) : FilterOptions.maxGenes(maxGenes);
        }
    }

    @Override
    boolean cells() {
        return true;
    }

    @Override
    FilterOptions options() {
        return criterion.options();
    }
}
