/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link Pseudobulk} aggregates: cells grouped by {@code sampleCol} and {@code groupsCol} of obs, summed or
 * averaged, then, when a threshold is set, filtered as decoupler's {@code pp.filter_samples} does: rows with fewer
 * than {@code minCells} cells or less than {@code minCounts} total counts are dropped.
 *
 * @param sampleCol obs column naming each cell's sample (strings)
 * @param groupsCol obs column naming each cell's group, e.g. its cell type (strings); must differ from sampleCol
 * @param mode      {@link Mode#SUM} or {@link Mode#MEAN} of each gene over the row's cells
 * @param minCells  keep rows with at least this many cells; 0 sets no threshold
 * @param minCounts keep rows whose counts total at least this; 0 sets no threshold
 */
public record PseudobulkOptions(String sampleCol, String groupsCol, Mode mode, int minCells, double minCounts) {

    /** How a row aggregates its cells, as decoupler's {@code mode="sum"} and {@code mode="mean"}. */
    public enum Mode {
        SUM,
        MEAN;

        /** decoupler's name: {@code sum}, {@code mean}. */
        public String scanpyName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** decoupler's {@code sample_col}. */
    public static final Parameter<String> SAMPLE_COL =
            Parameter.obsColumn("sample_col", "obs column of the samples.").required();

    /** decoupler's {@code groups_col}. */
    public static final Parameter<String> GROUPS_COL = Parameter.obsColumn(
                    "groups_col", "obs column of the groups (e.g. cell types).")
            .required();

    /** decoupler's {@code mode}. */
    public static final Parameter<String> MODE = Parameter.choice(
                    "mode",
                    Mode.SUM.scanpyName(),
                    Arrays.stream(Mode.values()).map(Mode::scanpyName).toList(),
                    "Aggregate of each gene over a pair's cells.")
            .unsupported("median");

    /** {@code filter_samples(min_cells)}. */
    public static final Parameter<Integer> MIN_CELLS = Parameter.integer(
                    "min_cells", 0, "Keep pairs with at least this many cells (0: no threshold).")
            .atLeast(0);

    /** {@code filter_samples(min_counts)}. */
    public static final Parameter<Double> MIN_COUNTS = Parameter.number(
            "min_counts", 0.0, "Keep pairs with at least this many counts in total (0: no threshold).");

    /** The parameters, in decoupler's order ({@code pp.pseudobulk}'s, then {@code pp.filter_samples}'). */
    public static final List<Parameter<?>> PARAMETERS = List.of(SAMPLE_COL, GROUPS_COL, MODE, MIN_CELLS, MIN_COUNTS);

    public PseudobulkOptions {
        Objects.requireNonNull(sampleCol, "sampleCol");
        Objects.requireNonNull(groupsCol, "groupsCol");
        Objects.requireNonNull(mode, "mode");
        if (sampleCol.equals(groupsCol)) {
            throw new InvalidParameterException(
                    GROUPS_COL.name(),
                    "sample and groups columns are both '" + sampleCol
                            + "'; pseudobulk by sample alone is not supported");
        }
        MIN_CELLS.check(minCells);
        MIN_COUNTS.check(minCounts);
    }

    /** Sums by sample and group, without filtering (decoupler's {@code pp.pseudobulk} defaults). */
    public static PseudobulkOptions of(String sampleCol, String groupsCol) {
        return from(Arguments.of(Map.of(SAMPLE_COL.name(), sampleCol, GROUPS_COL.name(), groupsCol)));
    }

    /**
     * @param arguments values of {@link #PARAMETERS}, by decoupler's names
     * @return the options they give, decoupler's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static PseudobulkOptions from(Arguments arguments) {
        return new PseudobulkOptions(
                arguments.require(SAMPLE_COL),
                arguments.require(GROUPS_COL),
                Mode.valueOf(arguments.require(MODE).toUpperCase(Locale.ROOT)),
                arguments.require(MIN_CELLS),
                arguments.require(MIN_COUNTS));
    }

    public PseudobulkOptions withMode(Mode m) {
        return new PseudobulkOptions(sampleCol, groupsCol, m, minCells, minCounts);
    }

    public PseudobulkOptions withMinCells(int n) {
        return new PseudobulkOptions(sampleCol, groupsCol, mode, n, minCounts);
    }

    public PseudobulkOptions withMinCounts(double total) {
        return new PseudobulkOptions(sampleCol, groupsCol, mode, minCells, total);
    }

    /**
     * Whether rows are filtered: when either threshold is set, both apply together (as {@code filter_samples} always
     * applies both); when neither is, every row is kept, even one whose total is negative.
     */
    boolean filters() {
        return minCells > 0 || minCounts != 0;
    }

    /** Whether row {@code cells, counts} passes the thresholds. */
    boolean keeps(int cells, double counts) {
        return !filters() || (cells >= minCells && counts >= minCounts);
    }
}
