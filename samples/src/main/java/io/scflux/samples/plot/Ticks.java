/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import java.math.BigDecimal;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/**
 * Tick values at round numbers, multiples of 1, 2 or 5 times a power of ten as on XChart's and matplotlib's axes, for
 * the scales this package draws itself (the colour bar); labelled with as many decimals as the step has.
 */
record Ticks(double[] values, double step) {

    private static final double[] STEPS = {1, 2, 5, 10};

    /**
     * At most {@code most} ticks between {@code lo} and {@code hi} (both included when round), the smallest round
     * step that keeps them that few; a single tick at {@code lo} when the range is empty.
     */
    static Ticks between(double lo, double hi, int most) {
        if (!(hi > lo)) {
            return new Ticks(new double[] {lo}, 0);
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10((hi - lo) / most)));
        for (double m : STEPS) {
            double step = m * magnitude;
            // a hair of slack so that an end that is a multiple, bar rounding, still gets its tick
            long first = (long) Math.ceil(lo / step - 1e-9);
            long last = (long) Math.floor(hi / step + 1e-9);
            if (last - first + 1 <= most) {
                double[] values = new double[(int) (last - first + 1)];
                BigDecimal exact = BigDecimal.valueOf(m).scaleByPowerOfTen((int) Math.round(Math.log10(magnitude)));
                for (int i = 0; i < values.length; i++) {
                    values[i] = exact.multiply(BigDecimal.valueOf(first + i)).doubleValue();
                }
                return new Ticks(values, exact.doubleValue());
            }
        }
        throw new AssertionError("a step of ten magnitudes leaves at most " + most + " ticks");
    }

    /** Tick {@code i}'s label: thousands grouped, the decimals of the step (a lone tick: up to three). */
    String label(int i) {
        DecimalFormat format = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT));
        if (step > 0) {
            int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
            format.setMinimumFractionDigits(decimals);
            format.setMaximumFractionDigits(decimals);
        } else {
            format.setMaximumFractionDigits(3);
        }
        return format.format(values[i] == 0 ? 0.0 : values[i]);
    }
}
