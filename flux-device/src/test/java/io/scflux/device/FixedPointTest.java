/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class FixedPointTest {

    /** The cell (two's complement, low word first) holding {@code v}. */
    private static long[] cell(BigInteger v) {
        BigInteger mask = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        return new long[] {v.and(mask).longValue(), v.shiftRight(64).longValue()};
    }

    @Test
    void cellsReadBackAsTheirValueOverTwoToTheE() {
        assertEquals(-1.5, FixedPoint.value(cell(BigInteger.valueOf(-3)), 0, 1));
        assertEquals(3.0, FixedPoint.value(cell(BigInteger.valueOf(3)), 0, 0));
        assertEquals(0x1p64, FixedPoint.value(cell(BigInteger.ONE.shiftLeft(64)), 0, 0));
        BigInteger big = BigInteger.ONE.shiftLeft(100).add(BigInteger.valueOf(12345));
        assertEquals(big.doubleValue() / 0x1p90, FixedPoint.value(cell(big), 0, 90), 1e-16 * 0x1p10);
        BigInteger negative = big.negate();
        assertEquals(negative.doubleValue() / 0x1p90, FixedPoint.value(cell(negative), 0, 90), 1e-16 * 0x1p10);
        // an unsigned low word above 2^63 with a zero high word
        BigInteger high = BigInteger.ONE.shiftLeft(63).add(BigInteger.TEN);
        assertEquals(high.doubleValue(), FixedPoint.value(cell(high), 0, 0));
    }

    @Test
    void theExponentKeepsTheBoundBelowTwoToThe124() {
        for (double bound : new double[] {1e-30, 0.75, 1, 3, 4.2e9, 1e20}) {
            int e = FixedPoint.exponent(bound);
            assertTrue(Math.scalb(bound, e) < 0x1p124, "bound " + bound);
            assertTrue(Math.scalb(bound, e) >= 0x1p122, "bound " + bound + " keeps its precision");
        }
        assertEquals(0, FixedPoint.exponent(0));
    }
}
