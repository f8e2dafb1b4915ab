/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.qc;

import io.scflux.core.InvalidOptionException;
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

    public QcMetricsOptions {
        qcVars = List.copyOf(qcVars);
        if (qcVars.size() != new TreeSet<>(qcVars).size()) {
            throw new InvalidOptionException("qc variables repeat: " + qcVars);
        }
        for (Integer n : Objects.requireNonNull(percentTop, "percentTop")) {
            if (n == null || n < 1) {
                throw new InvalidOptionException("percent_top ranks must be at least 1, got " + percentTop);
            }
        }
        percentTop = List.copyOf(new TreeSet<>(percentTop));
    }

    /** No qc variables, ranks {@link #DEFAULT_PERCENT_TOP}, log1p columns. */
    public static QcMetricsOptions defaults() {
        return new QcMetricsOptions(List.of(), DEFAULT_PERCENT_TOP, true);
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
