/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.moments;

/**
 * {@code (float) Math.expm1(y)}, bit for bit, without its cost: on Java 17 {@code Math.expm1} is a native call
 * (fdlibm through JNI, about 30 ns), which made seurat's {@code expm1} of every stored value most of an HVG pass,
 * while {@code Math.exp} and {@code Math.log} are intrinsics. For {@code |y| >= 0.5}, {@code exp(y) - 1}, and below,
 * Kahan's {@code (u - 1) y / log(u)} with {@code u = exp(y)}, are within a few float64 ulps of {@code expm1(y)}; where
 * every value within {@link #MARGIN} of that rounds to the same float, that float is the answer, and otherwise (a value
 * next to a rounding boundary, about one in four million; {@code y} so small that {@code exp(y)} rounds to 1; NaN)
 * the native call decides.
 */
final class Expm1 {

    /** 32 float64 ulps: more than the error of either formula plus fdlibm's expm1 (under 1 ulp). */
    private static final double MARGIN = 0x1p-47;

    /** Slots of the memo: a row of log-normalized counts holds a few dozen distinct values, repeated. */
    private static final int SLOTS = 256;

    /** The float bits of the last {@code y} of each slot (a NaN pattern while empty: NaN is never looked up). */
    private final int[] keys = new int[SLOTS];

    private final float[] results = new float[SLOTS];

    /** A memo of results for one run of values (a block): {@link #apply} looks a value up before computing it. */
    Expm1() {
        java.util.Arrays.fill(keys, 0x7fffffff);
    }

    /** {@link #of(float)}, from the memo when {@code y} was seen last in its slot: the same bits, fewer exponentials. */
    float apply(float y) {
        int bits = Float.floatToRawIntBits(y);
        int slot = (bits * 0x9E3779B1) >>> 24;
        if (y != y) {
            return of(y);
        }
        if (keys[slot] == bits) {
            return results[slot];
        }
        float r = of(y);
        keys[slot] = bits;
        results[slot] = r;
        return r;
    }

    static float of(float y) {
        if (y == 0) {
            return y;
        }
        double u = Math.exp(y);
        double d;
        if (Math.abs(y) >= 0.5f) {
            d = u - 1.0;
        } else if (u != 1.0) {
            d = (u - 1.0) * (y / Math.log(u));
        } else {
            return (float) Math.expm1(y);
        }
        double room = Math.abs(d) * MARGIN;
        float low = (float) (d - room);
        if (low == (float) (d + room)) {
            return low;
        }
        return (float) Math.expm1(y);
    }
}
