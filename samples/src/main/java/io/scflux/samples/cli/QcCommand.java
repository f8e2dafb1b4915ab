/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.qc.QcMetrics;
import picocli.CommandLine.Command;
import reactor.core.publisher.Mono;

/** {@code scflux qc}: scanpy's calculate_qc_metrics in one pass over X ({@link QcMetrics}). */
@Command(
        name = "qc",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Adds scanpy's calculate_qc_metrics columns, in one pass over X: to obs n_genes_by_counts, "
                    + "total_counts, pct_counts_in_top_N_genes and, per --qc-var, total_counts_NAME and "
                    + "pct_counts_NAME, with their log1p_ columns; to var n_cells_by_counts, mean_counts, "
                    + "pct_dropout_by_counts and total_counts. X is written unchanged."
        })
final class QcCommand extends OpCommand {

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return bind(catalogStep(), QcOptions.prepare(spec, arguments(), data), data)
                .apply(data, streaming);
    }
}
