/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.qc.QcMetricsOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The QC options {@code qc}, {@code preprocess} and {@code pipeline} share: {@code --qc-var}, {@code --percent-top}
 * and {@code --no-log1p}, scanpy's {@code qc_vars}, {@code percent_top} and {@code log1p}.
 */
final class QcOptions {

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(
            names = "--qc-var",
            paramLabel = "NAME[=PREFIX]",
            description = "A qc variable: total_counts_NAME and pct_counts_NAME are reported for the genes of the bool "
                    + "var column NAME; with =PREFIX that column is first made, true for genes whose name starts "
                    + "with PREFIX (repeatable; e.g. mt=MT-).")
    private List<String> qcVars = new ArrayList<>();

    @Option(
            names = "--percent-top",
            split = ",",
            paramLabel = "N",
            description = "Ranks n of the pct_counts_in_top_n_genes columns (default: scanpy's 50,100,200,500; "
                    + "none: no such column).")
    private List<String> percentTop;

    @Option(names = "--no-log1p", description = "Leave out the log1p_ columns (scanpy's log1p=False).")
    private boolean noLog1p;

    /** Adds the qc variables' var columns made from prefixes to {@code data} and returns the options naming them. */
    QcMetricsOptions apply(AnnData data) {
        List<Integer> ranks = ranks(data.nVars());
        List<String> names = new ArrayList<>();
        for (String v : qcVars) {
            int eq = v.indexOf('=');
            String name = eq < 0 ? v : v.substring(0, eq);
            if (name.isEmpty()) {
                throw new ParameterException(
                        spec.commandLine(), "--qc-var needs a column name (NAME or " + "NAME=PREFIX), got '" + v + "'");
            }
            if (names.contains(name)) {
                throw new ParameterException(spec.commandLine(), "--qc-var " + name + " is given twice");
            }
            if (eq >= 0) {
                data.var().put(name, QcMetrics.genesStartingWith(data.var(), v.substring(eq + 1)));
            }
            names.add(name);
        }
        return new QcMetricsOptions(names, ranks, !noLog1p);
    }

    private List<Integer> ranks(int nVars) {
        if (percentTop == null) {
            List<Integer> ranks = QcMetricsOptions.DEFAULT_PERCENT_TOP;
            if (ranks.get(ranks.size() - 1) > nVars) {
                throw new ParameterException(
                        spec.commandLine(),
                        "the default --percent-top ranks "
                                + ranks.stream().map(String::valueOf).collect(Collectors.joining(","))
                                + " reach past the " + nVars + " genes (scanpy fails the same way): give ranks up to "
                                + nVars
                                + " (e.g. --percent-top " + Math.max(1, nVars / 10) + ") or --percent-top none");
            }
            return QcMetricsOptions.DEFAULT_PERCENT_TOP;
        }
        List<Integer> ranks = new ArrayList<>();
        for (String r : percentTop) {
            if (r.isEmpty() || r.equals("none")) {
                continue;
            }
            int n;
            try {
                n = Integer.parseInt(r.strip());
            } catch (NumberFormatException e) {
                throw new ParameterException(
                        spec.commandLine(), "--percent-top takes whole numbers or none, got '" + r + "'");
            }
            if (n < 1 || n > nVars) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--percent-top ranks must be in [1, " + nVars + "] (the number of genes), got " + n);
            }
            ranks.add(n);
        }
        return ranks;
    }
}
