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
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import io.scflux.ops.qc.QcMetricsOptions;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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

    /** QC's parameters and normalize_total's target_sum, the options of preprocess and pipeline. */
    static final List<Parameter<?>> PARAMETERS = Stream.concat(
                    QcMetricsOptions.PARAMETERS.stream(), Stream.of(NormalizeTotalOptions.TARGET_SUM))
            .toList();

    @Override
    public List<Parameter<?>> parameters() {
        return PARAMETERS;
    }

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return Preprocess.preprocess(data, options(spec, arguments(), data), streaming);
    }

    /** The options of preprocess from the {@link #PARAMETERS} given to {@code spec}'s command. */
    static PreprocessOptions options(CommandSpec spec, Arguments arguments, AnnData data) {
        Arguments qc = QcOptions.prepare(spec, arguments, data);
        return new PreprocessOptions(
                QcMetricsOptions.from(qc), NormalizeTotalOptions.from(arguments), Log1pOptions.defaults());
    }
}
