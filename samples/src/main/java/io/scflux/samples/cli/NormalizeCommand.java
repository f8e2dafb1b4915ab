/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.normalize.NormalizeTotal;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/** {@code scflux normalize}: scanpy's normalize_total ({@link NormalizeTotal}). */
@Command(
        name = "normalize",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Scales each cell to the same total, as scanpy's normalize_total: one pass over X computes "
                    + "the cell totals, the output X holds the counts divided by total / target sum (float32)."
        })
final class NormalizeCommand extends OpCommand {

    @Mixin
    private TargetSumOption target;

    @Option(
            names = "--exclude-highly-expressed",
            description = "Leave out of every cell's total the genes that make up more than --max-fraction of some "
                    + "cell's total (a first pass finds them).")
    private boolean excludeHighlyExpressed;

    @Option(
            names = "--max-fraction",
            paramLabel = "F",
            defaultValue = "0.05",
            description = "With --exclude-highly-expressed: the fraction (default: ${DEFAULT-VALUE}).")
    private double maxFraction;

    @Option(
            names = "--key-added",
            paramLabel = "NAME",
            description = "Add obs NAME: each cell's normalization factor, its total / target sum.")
    private String keyAdded;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        NormalizeTotalOptions options;
        try {
            options = target.options().withKeyAdded(keyAdded);
            if (excludeHighlyExpressed) {
                options = options.excludingHighlyExpressed(maxFraction);
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--max-fraction: " + e.getMessage(), e);
        }
        return NormalizeTotal.normalize(data, options, streaming);
    }
}
