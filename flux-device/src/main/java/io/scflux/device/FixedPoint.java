package io.scflux.device;

/**
 * The host half of the device reductions' 128-bit fixed-point sums: the scale {@code 2^e} a block's terms are
 * multiplied by so that no sum can overflow, and the conversion of a cell (two 64-bit words, low then high, two's
 * complement) back to float64. Integer sums do not depend on the order of the additions, which makes a block's
 * partial the same bits on every run.
 */
final class FixedPoint {

    /** A sum's magnitude is kept below {@code 2^HEADROOM}. */
    private static final int HEADROOM = 124;

    private FixedPoint() {
    }

    /** The exponent for sums whose magnitudes are at most {@code bound} (finite, non-negative). */
    static int exponent(double bound) {
        if (!(bound > 0)) {
            return 0;
        }
        return HEADROOM - Math.getExponent(bound) - 1;
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
