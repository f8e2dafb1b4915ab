/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.qc;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The parameters of {@link QcMetrics}, as scanpy's {@code calculate_qc_metrics} names them: {@code qcVars} are bool
 * var columns (e.g. {@code mt}) whose genes get their own totals and percentages, {@code percentTop} the ranks
 * {@code n} of the {@code pct_counts_in_top_{n}_genes} columns (kept sorted and distinct), {@code log1p} whether the
 * {@code log1p_*} columns are added.
 */
public record QcMetricsOptions(List<String> qcVars, List<Integer> percentTop, boolean log1p) {

    /** scanpy's default ranks; a matrix of fewer genes than one of them needs ranks of its own, as in scanpy. */
    public static final List<Integer> DEFAULT_PERCENT_TOP = List.of(50, 100, 200, 500);

    /** scanpy's {@code qc_vars}. */
    public static final Parameter<List<String>> QC_VARS = Parameter.varColumns(
            "qc_vars", List.of(), "Bool var columns (e.g. mt) whose genes get total_counts_NAME and pct_counts_NAME.");

    /** scanpy's {@code percent_top}. */
    public static final Parameter<List<Integer>> PERCENT_TOP = Parameter.integers(
                    "percent_top",
                    DEFAULT_PERCENT_TOP,
                    "Ranks n of the pct_counts_in_top_n_genes columns (empty: no such column).")
            .atLeast(1);

    /** scanpy's {@code log1p}. */
    public static final Parameter<Boolean> LOG1P =
            Parameter.bool("log1p", true, "Add the log1p_ columns (log1p=False leaves them out).");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS = List.of(QC_VARS, PERCENT_TOP, LOG1P);

    public QcMetricsOptions {
        qcVars = List.copyOf(qcVars);
        if (qcVars.size() != new TreeSet<>(qcVars).size()) {
            throw new InvalidParameterException(QC_VARS.name(), "qc variables repeat: " + qcVars);
        }
        PERCENT_TOP.check(List.copyOf(Objects.requireNonNull(percentTop, "percentTop")));
        percentTop = List.copyOf(new TreeSet<>(percentTop));
    }

    /** No qc variables, ranks {@link #DEFAULT_PERCENT_TOP}, log1p columns. */
    public static QcMetricsOptions defaults() {
        return from(Arguments.none());
    }

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static QcMetricsOptions from(Arguments arguments) {
        return new QcMetricsOptions(
                arguments.require(QC_VARS), arguments.require(PERCENT_TOP), arguments.require(LOG1P));
    }

    public QcMetricsOptions withQcVars(String... names) {
        return new QcMetricsOptions(List.of(names), percentTop, log1p);
    }

    public QcMetricsOptions withPercentTop(Integer... ranks) {
        return new QcMetricsOptions(qcVars, List.of(ranks), log1p);
    }

    public QcMetricsOptions withLog1p(boolean on) {
        return new QcMetricsOptions(qcVars, percentTop, on);
    }
}
