package io.scflux.ops;

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

    private Expm1() {
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
