/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.ops.normalize.NormalizeTotalOptions;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --target-sum}, which {@code normalize} and {@code preprocess} share. */
final class TargetSumOption {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(
            names = "--target-sum",
            paramLabel = "S",
            description = "Each cell's total after normalization (default: the median of the nonzero cell totals, "
                    + "as scanpy).")
    private Double targetSum;

    NormalizeTotalOptions options() {
        try {
            return NormalizeTotalOptions.defaults().withTargetSum(targetSum);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--target-sum must be positive, got " + targetSum);
        }
    }
}
