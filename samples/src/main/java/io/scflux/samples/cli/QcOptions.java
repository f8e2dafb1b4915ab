/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.qc.QcMetricsOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What the command line adds to QC's catalog parameters, in {@code qc}, {@code preprocess} and {@code pipeline}:
 * {@code --qc-var NAME=PREFIX} first makes the bool var column NAME of the genes whose name starts with PREFIX, and
 * {@code --percent-top} ranks past the number of genes are a usage error saying what to give instead (scanpy fails
 * the same way, less helpfully).
 */
final class QcOptions {

    private QcOptions() {}

    /**
     * The {@code arguments} of {@code spec}'s command with each {@code qc_vars} entry NAME=PREFIX made into the var
     * column NAME of {@code data} and replaced by NAME, the ranks checked against its genes.
     */
    static Arguments prepare(CommandSpec spec, Arguments arguments, AnnData data) {
        List<String> names = new ArrayList<>();
        for (String v : arguments.require(QcMetricsOptions.QC_VARS)) {
            int eq = v.indexOf('=');
            String name = eq < 0 ? v : v.substring(0, eq);
            if (name.isEmpty()) {
                throw new ParameterException(
                        spec.commandLine(), "--qc-var needs a column name (NAME or NAME=PREFIX), got '" + v + "'");
            }
            if (names.contains(name)) {
                throw new ParameterException(spec.commandLine(), "--qc-var " + name + " is given twice");
            }
            if (eq >= 0) {
                data.var().put(name, QcMetrics.genesStartingWith(data.var(), v.substring(eq + 1)));
            }
            names.add(name);
        }
        checkRanks(
                spec,
                arguments.require(QcMetricsOptions.PERCENT_TOP),
                !arguments.has(QcMetricsOptions.PERCENT_TOP),
                data.nVars());
        return arguments.with(QcMetricsOptions.QC_VARS, names);
    }

    private static void checkRanks(CommandSpec spec, List<Integer> ranks, boolean byDefault, int nVars) {
        for (int n : ranks) {
            if (n <= nVars) {
                continue;
            }
            if (byDefault) {
                throw new ParameterException(
                        spec.commandLine(),
                        "the default --percent-top ranks "
                                + ranks.stream().map(String::valueOf).collect(Collectors.joining(","))
                                + " reach past the " + nVars + " genes (scanpy fails the same way): give ranks up to "
                                + nVars + " (e.g. --percent-top " + Math.max(1, nVars / 10)
                                + ") or --percent-top none");
            }
            throw new ParameterException(
                    spec.commandLine(),
                    "--percent-top ranks must be in [1, " + nVars + "] (the number of genes), got " + n);
        }
    }
}
