/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.Pp;
import io.scflux.ops.filter.FilterOptions;
import reactor.core.publisher.Mono;

/**
 * What {@code filter-cells} and {@code filter-genes} share: the criterion given (scanpy takes one per call), the
 * filter, and scanpy's line saying how many were filtered out.
 */
abstract class FilterCommand extends OpCommand {

    /** True for cells, false for genes. */
    abstract boolean cells();

    /** The one criterion given. */
    abstract FilterOptions options();

    @Override
    final Mono<AnnData> apply(AnnData data, Streaming streaming) {
        FilterOptions options = options();
        boolean cells = cells();
        return (cells ? Pp.filterCells(data, options, streaming) : Pp.filterGenes(data, options, streaming))
                .doOnNext(out -> spec.commandLine()
                        .getOut()
                        .println(options.report(cells, cells ? data.nObs() - out.nObs() : data.nVars() - out.nVars())));
    }
}
