/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import io.scflux.core.InvalidOptionException;
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
        MEAN
    }

    public PseudobulkOptions {
        Objects.requireNonNull(sampleCol, "sampleCol");
        Objects.requireNonNull(groupsCol, "groupsCol");
        Objects.requireNonNull(mode, "mode");
        if (sampleCol.equals(groupsCol)) {
            throw new InvalidOptionException("sample and groups columns are both '" + sampleCol
                    + "'; pseudobulk by sample alone is not supported");
        }
        if (minCells < 0) {
            throw new InvalidOptionException("min_cells must not be negative, got " + minCells);
        }
        if (Double.isNaN(minCounts)) {
            throw new InvalidOptionException("min_counts must be a number");
        }
    }

    /** Sums by sample and group, without filtering (decoupler's {@code pp.pseudobulk} defaults). */
    public static PseudobulkOptions of(String sampleCol, String groupsCol) {
        return new PseudobulkOptions(sampleCol, groupsCol, Mode.SUM, 0, 0);
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
