/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.filter;

import io.scflux.core.InvalidOptionException;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
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

    /** scanpy's {@code min_counts} of both filters. */
    public static final Parameter<Double> MIN_COUNTS = Parameter.number(
                    "min_counts", null, "Keep those with at least this many counts.")
            .atLeast(0);

    /** {@code filter_cells(min_genes)}. */
    public static final Parameter<Integer> MIN_GENES = Parameter.integer(
                    "min_genes", null, "Keep cells expressing at least this many genes.")
            .atLeast(0);

    /** scanpy's {@code max_counts} of both filters. */
    public static final Parameter<Double> MAX_COUNTS = Parameter.number(
                    "max_counts", null, "Keep those with at most this many counts.")
            .atLeast(0);

    /** {@code filter_cells(max_genes)}. */
    public static final Parameter<Integer> MAX_GENES = Parameter.integer(
                    "max_genes", null, "Keep cells expressing at most this many genes.")
            .atLeast(0);

    /** {@code filter_genes(min_cells)}. */
    public static final Parameter<Integer> MIN_CELLS = Parameter.integer(
                    "min_cells", null, "Keep genes expressed in at least this many cells.")
            .atLeast(0);

    /** {@code filter_genes(max_cells)}. */
    public static final Parameter<Integer> MAX_CELLS = Parameter.integer(
                    "max_cells", null, "Keep genes expressed in at most this many cells.")
            .atLeast(0);

    /** The parameters of {@code filter_cells}, in scanpy's order; exactly one is given. */
    public static final List<Parameter<?>> CELL_PARAMETERS = List.of(MIN_COUNTS, MIN_GENES, MAX_COUNTS, MAX_GENES);

    /** The parameters of {@code filter_genes}, in scanpy's order; exactly one is given. */
    public static final List<Parameter<?>> GENE_PARAMETERS = List.of(MIN_COUNTS, MIN_CELLS, MAX_COUNTS, MAX_CELLS);

    /**
     * @param arguments exactly one of {@link #CELL_PARAMETERS}, by scanpy's name
     * @return the criterion of {@code filter_cells} it gives
     * @throws InvalidParameterException when none or several are given, or the value is refused
     */
    public static FilterOptions cellsFrom(Arguments arguments) {
        return from(arguments, "filter_cells", CELL_PARAMETERS);
    }

    /**
     * @param arguments exactly one of {@link #GENE_PARAMETERS}, by scanpy's name
     * @return the criterion of {@code filter_genes} it gives
     * @throws InvalidParameterException when none or several are given, or the value is refused
     */
    public static FilterOptions genesFrom(Arguments arguments) {
        return from(arguments, "filter_genes", GENE_PARAMETERS);
    }

    /** The criterion of the one of {@code parameters} (min counts, min other, max counts, max other) given. */
    private static FilterOptions from(Arguments arguments, String step, List<Parameter<?>> parameters) {
        Parameter<?> given = arguments.oneOf(step, parameters);
        Bound bound = given == parameters.get(0) || given == parameters.get(1) ? Bound.MIN : Bound.MAX;
        Object value = arguments.require(given);
        return given == MIN_COUNTS || given == MAX_COUNTS
                ? new FilterOptions(Measure.COUNTS, bound, (Double) value)
                : new FilterOptions(Measure.EXPRESSED, bound, (Integer) value);
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
