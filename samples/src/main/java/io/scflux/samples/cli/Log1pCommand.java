/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.backend.Streaming;
import io.scflux.ops.Log1p;
import io.scflux.ops.Log1pOptions;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/** {@code scflux log1p}: scanpy's log1p ({@link Log1p}), applied as X is written. */
@Command(
        name = "log1p",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Replaces every value x of X with ln(1 + x), as scanpy's log1p (float32 stays float32, other "
                    + "types become float64), and sets uns['log1p']."
        })
final class Log1pCommand extends OpCommand {

    @Option(
            names = "--base",
            paramLabel = "B",
            description = "Base of the logarithm (default: e, the natural logarithm).")
    private @Nullable Double base;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        Log1pOptions options;
        try {
            options = new Log1pOptions(base);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--base: " + e.getMessage(), e);
        }
        return Log1p.log1p(data, options, streaming);
    }
}
