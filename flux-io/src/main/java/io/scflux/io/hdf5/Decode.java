/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/**
 * Converts stored elements (any numpy numeric type, either byte order) into the primitive arrays blocks carry:
 * float32 values, int32 indices, int64 row pointers. Bulk copies where the types match, one tight loop otherwise.
 *
 * <p>Public because the dense file matrix and the transposed store, above this package, decode stored values with it.
 */
public final class Decode {

    private Decode() {}

    /**
     * {@code n} elements of type {@code t} from {@code src} (at its position) as floats into {@code dst[off..]}.
     * Returns whether float32 may have changed one of them (a value past 2^24, a float64 that is not a float): the
     * test rides the conversion, one OR per value, and only a block it flags is compared value by value
     * ({@link #exact}).
     */
    public static boolean floats(ByteBuffer src, DType t, float[] dst, int off, int n) {
        switch (t) {
            case FLOAT32 -> src.asFloatBuffer().get(dst, off, n);
            case FLOAT64 -> {
                var b = src.asDoubleBuffer();
                boolean changed = false;
                for (int i = 0; i < n; i++) {
                    double v = b.get(i);
                    float f = (float) v;
                    dst[off + i] = f;
                    changed |= f != v;
                }
                return changed;
            }
            case INT8 -> {
                for (int i = 0; i < n; i++) {
                    dst[off + i] = src.get(src.position() + i);
                }
            }
            case UINT8, BOOL -> {
                for (int i = 0; i < n; i++) {
                    dst[off + i] = src.get(src.position() + i) & 0xff;
                }
            }
            case INT16 -> {
                var b = src.asShortBuffer();
                for (int i = 0; i < n; i++) {
                    dst[off + i] = b.get(i);
                }
            }
            case UINT16 -> {
                var b = src.asShortBuffer();
                for (int i = 0; i < n; i++) {
                    dst[off + i] = b.get(i) & 0xffff;
                }
            }
            case INT32 -> {
                var b = src.asIntBuffer();
                int outside = 0;
                for (int i = 0; i < n; i++) {
                    int v = b.get(i);
                    dst[off + i] = v;
                    outside |= (v + (1 << 24)) & ~((1 << 25) - 1); // not in [-2^24, 2^24)
                }
                return outside != 0;
            }
            case UINT32 -> {
                var b = src.asIntBuffer();
                int outside = 0;
                for (int i = 0; i < n; i++) {
                    int v = b.get(i);
                    dst[off + i] = v & 0xffffffffL;
                    outside |= v & ~((1 << 24) - 1); // 2^24 or more
                }
                return outside != 0;
            }
            case INT64 -> {
                var b = src.asLongBuffer();
                long outside = 0;
                for (int i = 0; i < n; i++) {
                    long v = b.get(i);
                    dst[off + i] = v;
                    outside |= (v + (1L << 24)) & ~((1L << 25) - 1);
                }
                return outside != 0;
            }
            case UINT64 -> {
                var b = src.asLongBuffer();
                long outside = 0;
                for (int i = 0; i < n; i++) {
                    long v = b.get(i);
                    dst[off + i] = v >= 0 ? v : (float) ((v >>> 1) * 2.0);
                    outside |= v & ~((1L << 24) - 1); // 2^24 or more, or past Long.MAX_VALUE
                }
                return outside != 0;
            }
            default -> throw new IllegalArgumentException("no numeric value in " + t);
        }
        return false;
    }

    /**
     * The {@code n} elements of type {@code t} in {@code src} (at its position) as stored, when some of them is not
     * {@code decoded[off..]}, their float values ({@link #floats}); else null. The values are compared first, and
     * copied only when one differs; a caller asks only where {@link #floats} flagged the block.
     */
    static @Nullable ExactValues exact(ByteBuffer src, DType t, float[] decoded, int off, int n) {
        if (!ExactValues.mayLose(t) || !loses(src, t, decoded, off, n)) {
            return null;
        }
        Object v = ExactValues.newArray(t, n);
        stored(src, t, v, 0, n);
        return ExactValues.of(t, v);
    }

    /**
     * {@code n} elements of type {@code t} (one {@link ExactValues#mayLose} accepts) from {@code src} as stored, into
     * {@code dst[off..]}, an array of {@link ExactValues#arrayType}'s kind.
     */
    public static void stored(ByteBuffer src, DType t, Object dst, int off, int n) {
        switch (t) {
            case INT32 -> src.asIntBuffer().get((int[]) dst, off, n);
            case FLOAT64 -> src.asDoubleBuffer().get((double[]) dst, off, n);
            case UINT32 -> longs(src, t, (long[]) dst, off, n);
            case INT64, UINT64 -> src.asLongBuffer().get((long[]) dst, off, n);
            default -> throw new IllegalArgumentException("float32 holds every " + t + " value");
        }
    }

    /** Whether some element of {@code src} differs from its float value in {@code decoded[off..]}. */
    public static boolean loses(ByteBuffer src, DType t, float[] decoded, int off, int n) {
        switch (t) {
            case FLOAT64 -> {
                var b = src.asDoubleBuffer();
                for (int i = 0; i < n; i++) {
                    double v = b.get(i);
                    if (decoded[off + i] != v && v == v) {
                        return true;
                    }
                }
                return false;
            }
            case INT32, UINT32 -> {
                var b = src.asIntBuffer();
                long mask = t == DType.INT32 ? -1L : 0xffffffffL;
                for (int i = 0; i < n; i++) {
                    long v = t == DType.INT32 ? b.get(i) : b.get(i) & mask;
                    if ((long) decoded[off + i] != v) {
                        return true;
                    }
                }
                return false;
            }
            default -> {
                var b = src.asLongBuffer();
                for (int i = 0; i < n; i++) {
                    long v = b.get(i);
                    // a uint64 past Long.MAX_VALUE is negative here, and no float cast gives it back
                    if (v < 0 && t == DType.UINT64 || (long) decoded[off + i] != v) {
                        return true;
                    }
                }
                return false;
            }
        }
    }

    /**
     * {@code n} integer elements as ints. Values that do not fit an int become -1, which every caller rejects as an
     * index out of range.
     */
    public static void ints(ByteBuffer src, DType t, int[] dst, int off, int n) {
        switch (t) {
            case INT32 -> src.asIntBuffer().get(dst, off, n);
            case INT64, UINT64 -> {
                var b = src.asLongBuffer();
                for (int i = 0; i < n; i++) {
                    long v = b.get(i);
                    dst[off + i] = v >= 0 && v <= Integer.MAX_VALUE ? (int) v : -1;
                }
            }
            case UINT32 -> {
                var b = src.asIntBuffer();
                for (int i = 0; i < n; i++) {
                    int v = b.get(i);
                    dst[off + i] = v >= 0 ? v : -1;
                }
            }
            case INT16 -> {
                var b = src.asShortBuffer();
                for (int i = 0; i < n; i++) {
                    dst[off + i] = b.get(i);
                }
            }
            case UINT16 -> {
                var b = src.asShortBuffer();
                for (int i = 0; i < n; i++) {
                    dst[off + i] = b.get(i) & 0xffff;
                }
            }
            case INT8 -> {
                for (int i = 0; i < n; i++) {
                    dst[off + i] = src.get(src.position() + i);
                }
            }
            case UINT8 -> {
                for (int i = 0; i < n; i++) {
                    dst[off + i] = src.get(src.position() + i) & 0xff;
                }
            }
            default -> throw new IllegalArgumentException("no integer value in " + t);
        }
    }

    /** {@code n} integer elements as longs; unsigned 64-bit values beyond {@code Long.MAX_VALUE} become -1. */
    public static void longs(ByteBuffer src, DType t, long[] dst, int off, int n) {
        switch (t) {
            case INT64, UINT64 -> {
                src.asLongBuffer().get(dst, off, n);
                if (t == DType.UINT64) {
                    for (int i = 0; i < n; i++) {
                        dst[off + i] = dst[off + i] < 0 ? -1 : dst[off + i];
                    }
                }
            }
            case INT32 -> {
                var b = src.asIntBuffer();
                for (int i = 0; i < n; i++) {
                    dst[off + i] = b.get(i);
                }
            }
            case UINT32 -> {
                var b = src.asIntBuffer();
                for (int i = 0; i < n; i++) {
                    dst[off + i] = b.get(i) & 0xffffffffL;
                }
            }
            default -> {
                int[] tmp = new int[n];
                ints(src, t, tmp, 0, n);
                for (int i = 0; i < n; i++) {
                    dst[off + i] = tmp[i];
                }
            }
        }
    }
}
