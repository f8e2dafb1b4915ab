/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.moments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Expm1} against {@code (float) Math.expm1}: the same bits over the floats a log-normalized X holds and more. */
class Expm1Test {

    @Test
    void givesTheBitsOfMathExpm1() {
        SplittableRandom rnd = new SplittableRandom(20261202);
        for (int i = 0; i < 5_000_000; i++) {
            float y = switch (i % 5) {
                case 0 -> (float) (rnd.nextDouble() * 12); // log1p of normalized counts
                case 1 -> (float) (rnd.nextDouble() * 200 - 100); // beyond float's range both ways
                case 2 -> (float) (rnd.nextDouble() * 2 - 1); // Kahan's formula, and the switch at 0.5
                case 3 -> (float) Math.scalb(rnd.nextDouble() - 0.5, -rnd.nextInt(60)); // tiny, both signs
                default -> Float.intBitsToFloat(rnd.nextInt()); // any float, NaN and infinities too
            };
            assertEquals(Float.floatToIntBits((float) Math.expm1(y)), Float.floatToIntBits(Expm1.of(y)), "y = " + y);
        }
        for (float y : new float[] {
            0f,
            -0f,
            0.5f,
            -0.5f,
            88.72283f,
            88.72284f,
            Float.MAX_VALUE,
            -Float.MAX_VALUE,
            Float.MIN_VALUE,
            Float.NaN,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY
        }) {
            assertEquals(Float.floatToIntBits((float) Math.expm1(y)), Float.floatToIntBits(Expm1.of(y)), "y = " + y);
        }
    }

    /** The memo returns what {@link Expm1#of} returns, for values seen again, colliding in a slot, and NaN. */
    @Test
    void theMemoGivesTheSameBits() {
        SplittableRandom rnd = new SplittableRandom(7);
        Expm1 memo = new Expm1();
        float[] seen = new float[600];
        for (int i = 0; i < seen.length; i++) {
            seen[i] = i % 50 == 0 ? Float.NaN : (float) Math.log1p(rnd.nextInt(1, 40) * 10_000.0 / 3_000);
        }
        for (int i = 0; i < 200_000; i++) {
            float y = seen[rnd.nextInt(seen.length)];
            assertEquals(Float.floatToIntBits(Expm1.of(y)), Float.floatToIntBits(memo.apply(y)), "y = " + y);
        }
        assertEquals(
                Float.floatToIntBits(Expm1.of(Float.intBitsToFloat(0x7fffffff))),
                Float.floatToIntBits(memo.apply(Float.intBitsToFloat(0x7fffffff))),
                "the empty slots' pattern");
    }
}
