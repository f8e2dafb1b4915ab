/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import java.util.Arrays;

/**
 * The range a scatter's axis shows: all of the values, or, when a few lie far beyond the bulk, a range that keeps
 * the bulk readable, the values beyond it drawn at its edge (one gene of dispersion 40 among thousands below 5 would
 * otherwise squeeze them into a line).
 */
record AxisRange(double lo, double hi) {

    /** No limit: every value is drawn where it is. */
    static final AxisRange ALL = new AxisRange(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);

    /** The share of values at each end that the bulk's spread leaves out. */
    private static final double TAIL = 0.005;
    /** How far past the bulk, in bulk spreads, a value may lie and still be drawn where it is. */
    private static final double REACH = 1;

    /**
     * The range of {@code values} (NaN and infinities left out): from the 0.5 % to the 99.5 % quantile, widened by
     * that spread on each side, or to the extreme value when it lies within; {@link #ALL} when nothing is beyond.
     */
    static AxisRange robust(double[] values) {
        double[] sorted =
                Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        if (sorted.length == 0) {
            return ALL;
        }
        double min = sorted[0];
        double max = sorted[sorted.length - 1];
        double bulkLo = quantile(sorted, TAIL);
        double bulkHi = quantile(sorted, 1 - TAIL);
        double reach = REACH * (bulkHi - bulkLo);
        double lo = Math.max(min, bulkLo - reach);
        double hi = Math.min(max, bulkHi + reach);
        return lo == min && hi == max || !(hi > lo) ? ALL : new AxisRange(lo, hi);
    }

    /** Whether this range leaves some values out (they are drawn at its edges). */
    boolean limits() {
        return lo > Double.NEGATIVE_INFINITY || hi < Double.POSITIVE_INFINITY;
    }

    /** The nearest-rank quantile {@code p} of ascending {@code sorted}. */
    private static double quantile(double[] sorted, double p) {
        return sorted[(int) Math.round(p * (sorted.length - 1))];
    }
}
