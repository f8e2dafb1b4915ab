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
@NullUnmarked // its nullness is not annotated yet: NullAway skips it
final class FilterGenesCommand extends FilterCommand {

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Criterion criterion;

    /** scanpy's four parameters, exactly one given. */
    static final class Criterion {
        @Option(
                names = "--min-counts",
                required = true,
                paramLabel = "X",
                description = "Keep genes with at least X counts.")
        Double minCounts;

        @Option(
                names = "--min-cells",
                required = true,
                paramLabel = "N",
                description = "Keep genes expressed in at least N cells.")
        Long minCells;

        @Option(
                names = "--max-counts",
                required = true,
                paramLabel = "X",
                description = "Keep genes with at most X counts.")
        Double maxCounts;

        @Option(
                names = "--max-cells",
                required = true,
                paramLabel = "N",
                description = "Keep genes expressed in at most N cells.")
        Long maxCells;

        FilterOptions options() {
            return minCounts != null
                    ? FilterOptions.minCounts(minCounts)
                    : minCells != null
                            ? FilterOptions.minCells(minCells)
                            : maxCounts != null ? FilterOptions.maxCounts(maxCounts) : FilterOptions.maxCells(maxCells);
        }
    }

    @Override
    boolean cells() {
        return false;
    }

    @Override
    FilterOptions options() {
        return criterion.options();
    }
}
