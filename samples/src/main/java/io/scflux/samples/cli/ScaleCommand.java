/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.scale.Scale;
import io.scflux.ops.scale.ScaleOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/** {@code scflux scale}: each gene to zero mean and unit variance as scanpy's {@code sc.pp.scale}. */
@Command(
        name = "scale",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Scales each gene to unit variance and zero mean as scanpy's sc.pp.scale, and adds var mean and "
                    + "std. Centring makes X dense (float64), as in scanpy; it is written as a dense array, block by "
                    + "block."
        })
final class ScaleCommand extends OpCommand {

    @Option(
            names = "--max-value",
            paramLabel = "V",
            description = "Clip scaled values above V (and below -V when centring); default: no clipping.")
    Double maxValue;

    @Option(names = "--no-zero-center", description = "Do not centre genes on their mean (X keeps its sparsity).")
    boolean noZeroCenter;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        if (maxValue != null && !(maxValue > 0)) {
            throw new ParameterException(spec.commandLine(), "--max-value must be positive, got " + maxValue);
        }
        return Scale.scale(data, new ScaleOptions(!noZeroCenter, maxValue), streaming);
    }

    @Override
    boolean rereadsX() {
        return true;
    }
}
