/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.filter.FilterOptions;
import io.scflux.ops.parameter.Arguments;
import reactor.core.publisher.Mono;

/**
 * What {@code filter-cells} and {@code filter-genes} share: the criterion given (scanpy takes one per call; the options
 * are the catalog's), the filter, and scanpy's line saying how many were filtered out.
 */
abstract class FilterCommand extends OpCommand {

    /** True for cells, false for genes. */
    abstract boolean cells();

    @Override
    final Mono<AnnData> apply(AnnData data, Streaming streaming) {
        Arguments arguments = arguments();
        CatalogStep.Bound filter = bind(catalogStep(), arguments, data);
        boolean cells = cells();
        FilterOptions options = cells ? FilterOptions.cellsFrom(arguments) : FilterOptions.genesFrom(arguments);
        return filter.apply(data, streaming)
                .doOnNext(out -> spec.commandLine()
                        .getOut()
                        .println(options.report(cells, cells ? data.nObs() - out.nObs() : data.nVars() - out.nVars())));
    }
}
