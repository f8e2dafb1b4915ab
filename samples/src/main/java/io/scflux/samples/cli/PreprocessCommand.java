/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.Preprocess;
import io.scflux.ops.PreprocessOptions;
import io.scflux.ops.log1p.Log1pOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import reactor.core.publisher.Mono;

/** {@code scflux preprocess}: QC, normalize_total and log1p fused into one pass over X ({@link Preprocess}). */
@Command(
        name = "preprocess",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "qc, normalize and log1p in one pass over X: adds the qc columns, and writes X normalized "
                    + "by each cell's total and log1p-transformed, the same as the three commands one after another."
        })
final class PreprocessCommand extends OpCommand {

    @Mixin
    private TargetSumOption target;

    @Mixin
    private QcOptions qc;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return Preprocess.preprocess(
                data, new PreprocessOptions(qc.apply(data), target.options(), Log1pOptions.defaults()), streaming);
    }
}
