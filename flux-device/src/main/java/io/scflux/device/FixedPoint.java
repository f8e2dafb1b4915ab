/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import io.scflux.core.RowBlock;

/**
 * The host half of the device reductions' 128-bit fixed-point sums: the scale {@code 2^e} a block's terms are
 * multiplied by so that no sum can overflow, and the conversion of a cell (two 64-bit words, low then high, two's
 * complement) back to float64. Integer sums do not depend on the order of the additions, which makes a block's
 * partial the same bits on every run.
 */
final class FixedPoint {

    /** A sum's magnitude is kept below {@code 2^HEADROOM}. */
    private static final int HEADROOM = 124;

    private FixedPoint() {}

    /** The exponent for sums whose magnitudes are at most {@code bound} (finite, non-negative). */
    static int exponent(double bound) {
        if (!(bound > 0)) {
            return 0;
        }
        return HEADROOM - Math.getExponent(bound) - 1;
    }

    /** The exponent for one block's column sums: each at most its largest magnitude times its entries. */
    static int sumExponent(RowBlock block, double maxAbs) {
        return exponent(maxAbs * block.nnz());
    }

    /** The exponent for one block's sums of squares (a float32 square may round up: twice the bound). */
    static int squareExponent(RowBlock block, double maxAbs) {
        return exponent(maxAbs * maxAbs * block.nnz() * 2);
    }

    /** The exponent for one block's Gram entries: at most {@code max^2} times its entries times its widest row. */
    static int gramExponent(RowBlock block, double maxAbs) {
        int[] indptr = block.indptr();
        long widest = 0;
        for (int r = 0; r < block.nRows(); r++) {
            widest = Math.max(widest, indptr[r + 1] - indptr[r]);
        }
        return exponent(maxAbs * maxAbs * block.nnz() * widest);
    }

    /** The largest magnitude of the block's values; NaN or infinite when one is not finite (then sum on the host). */
    static double maxAbs(RowBlock block) {
        float[] values = block.values();
        float max = 0;
        for (int k = 0; k < block.nnz(); k++) {
            float a = Math.abs(values[k]);
            if (Float.isNaN(a)) {
                return Double.NaN;
            }
            max = Math.max(max, a);
        }
        return max;
    }

    /** The value of the cell at {@code cells[2 i], cells[2 i + 1]} scaled by {@code 2^e}. */
    static double value(long[] cells, int i, int e) {
        long lo = cells[2 * i];
        long hi = cells[2 * i + 1];
        double v;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
            v = lo;
        } else {
            double unsignedLo = (double) (lo >>> 1) * 2 + (lo & 1);
            v = Math.scalb((double) hi, 64) + unsignedLo;
        }
        return Math.scalb(v, -e);
    }

    /** Adds each cell's value into {@code into}. */
    static void addTo(long[] cells, int e, double[] into) {
        for (int i = 0; i < into.length; i++) {
            into[i] += value(cells, i, e);
        }
    }
}
