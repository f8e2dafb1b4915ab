/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.filter;

import io.scflux.core.InvalidOptionException;
import java.util.Objects;

/**
 * One criterion of scanpy's {@code filter_cells} / {@code filter_genes}, which take exactly one per call: keep the
 * cells (genes) whose total counts, or number of genes expressed (cells expressing), is at least or at most
 * {@code threshold}. Made by the factories named as scanpy's parameters ({@link #minCounts}, {@link #minGenes}...).
 */
public record FilterOptions(Measure measure, Bound bound, double threshold) {

    /** What is compared: the sum of the values, or the number of positive values. */
    public enum Measure {
        COUNTS,
        EXPRESSED
    }

    /** Which side of the threshold is kept (inclusive). */
    public enum Bound {
        MIN,
        MAX
    }

    public FilterOptions {
        Objects.requireNonNull(measure, "measure");
        Objects.requireNonNull(bound, "bound");
        if (Double.isNaN(threshold)) {
            throw new InvalidOptionException("a filter threshold must be a number, got NaN");
        }
        if (threshold < 0) {
            // counts and numbers of genes (cells) are never negative: such a threshold is a mistake, not a filter
            throw new InvalidOptionException(name(measure, bound) + " must be at least 0, got " + number(threshold));
        }
    }

    /** {@code min_counts}: keep cells (genes) with at least this many counts. */
    public static FilterOptions minCounts(double n) {
        return new FilterOptions(Measure.COUNTS, Bound.MIN, n);
    }

    /** {@code max_counts}: keep cells (genes) with at most this many counts. */
    public static FilterOptions maxCounts(double n) {
        return new FilterOptions(Measure.COUNTS, Bound.MAX, n);
    }

    /** {@code filter_cells(min_genes)}: keep cells expressing at least this many genes. */
    public static FilterOptions minGenes(long n) {
        return new FilterOptions(Measure.EXPRESSED, Bound.MIN, n);
    }

    /** {@code filter_cells(max_genes)}: keep cells expressing at most this many genes. */
    public static FilterOptions maxGenes(long n) {
        return new FilterOptions(Measure.EXPRESSED, Bound.MAX, n);
    }

    /** {@code filter_genes(min_cells)}: keep genes expressed in at least this many cells. */
    public static FilterOptions minCells(long n) {
        return minGenes(n);
    }

    /** {@code filter_genes(max_cells)}: keep genes expressed in at most this many cells. */
    public static FilterOptions maxCells(long n) {
        return maxGenes(n);
    }

    /** Whether a cell (gene) of measure {@code value} is kept. */
    boolean keeps(double value) {
        return bound == Bound.MIN ? value >= threshold : value <= threshold;
    }

    /** The column scanpy adds: {@code n_counts}; {@code n_genes} on cells, {@code n_cells} on genes. */
    String column(boolean cells) {
        return measure == Measure.COUNTS ? "n_counts" : cells ? "n_genes" : "n_cells";
    }

    /**
     * scanpy's log line for {@code removed} cells (genes) filtered out: {@code filtered out 167 cells that have less
     * than 359 counts}.
     */
    public String report(boolean cells, int removed) {
        String than = (bound == Bound.MIN ? "less" : "more") + " than " + number(threshold);
        String what = cells
                ? (measure == Measure.COUNTS
                        ? "cells that have " + than + " counts"
                        : "cells that have " + than + " genes expressed")
                : (measure == Measure.COUNTS
                        ? "genes that have " + than + " counts"
                        : "genes that are detected in " + than + " cells");
        return "filtered out " + removed + " " + what;
    }

    /** scanpy's name of the parameter: {@code min_counts}, {@code max_genes} (filter_genes: {@code max_cells}). */
    private static String name(Measure measure, Bound bound) {
        String side = bound == Bound.MIN ? "min" : "max";
        return measure == Measure.COUNTS ? side + "_counts" : side + "_genes (" + side + "_cells)";
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
