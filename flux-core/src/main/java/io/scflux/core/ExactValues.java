/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The stored values of a block, as the file holds them, where float32 cannot hold them all: int32 counts past 2^24,
 * uint32 and int64 past it, float64 values that are not float32 values. A block reads its values as float32 for
 * arithmetic; a step that moves values without computing new ones (a write of X unchanged, a filter, a concatenation)
 * writes these instead, so that 2147483647 stays 2147483647 and 0.1 stays the float64 0.1.
 *
 * <p>A block without them (a block's exact values null) holds values float32 represents exactly: readers attach
 * them only to a block where some value would otherwise change, so counts stored as int32 or float32 (nearly every
 * file) cost nothing. The array is one of three kinds, by the stored type: {@code int[]} for int32, {@code long[]}
 * for uint32, int64 and uint64 (uint64 as its bits), {@code double[]} for float64.
 */
public final class ExactValues {

    private final DType dtype;
    private final Object array;
    private final int length;

    private ExactValues(DType dtype, Object array, int length) {
        this.dtype = dtype;
        this.array = array;
        this.length = length;
    }

    /**
     * Values of {@code dtype} in {@code array} (not copied), of the kind {@link #arrayType(DType)} names.
     *
     * @param dtype the stored type, one that {@link #mayLose} says float32 may not hold
     * @param array an {@code int[]}, {@code long[]} or {@code double[]} as the class comment says
     * @return the values
     */
    public static ExactValues of(DType dtype, Object array) {
        Objects.requireNonNull(array, "array");
        if (!mayLose(dtype)) {
            throw new IllegalArgumentException("float32 holds every " + dtype + " value: no exact values needed");
        }
        int length = switch (arrayType(dtype)) {
            case INT32 -> ((int[]) array).length;
            case FLOAT64 -> ((double[]) array).length;
            default -> ((long[]) array).length;
        };
        return new ExactValues(dtype, array, length);
    }

    /**
     * Whether some value of {@code dtype} is not a float32 value (and a block of it may need exact values).
     *
     * @param dtype a stored numeric type
     * @return true for int32, uint32, int64, uint64 and float64
     */
    public static boolean mayLose(DType dtype) {
        return switch (dtype) {
            case INT32, UINT32, INT64, UINT64, FLOAT64 -> true;
            default -> false;
        };
    }

    /**
     * The element type of the array that holds values of {@code dtype}: what a writer is handed with it.
     *
     * @param dtype a type {@link #mayLose} accepts
     * @return INT32, INT64, UINT64 or FLOAT64
     */
    public static DType arrayType(DType dtype) {
        return switch (dtype) {
            case INT32 -> DType.INT32;
            case UINT32, INT64 -> DType.INT64;
            case UINT64 -> DType.UINT64;
            case FLOAT64 -> DType.FLOAT64;
            default -> throw new IllegalArgumentException("no exact values for " + dtype);
        };
    }

    /**
     * The stored type of the values.
     *
     * @return the dtype the file holds
     */
    public DType dtype() {
        return dtype;
    }

    /**
     * The values, not a copy: read only.
     *
     * @return the array, of {@link #arrayType(DType)}'s kind
     */
    public Object array() {
        return array;
    }

    /**
     * The number of values.
     *
     * @return the array's length
     */
    public int length() {
        return length;
    }

    /**
     * The values at {@code positions[0, n)}, in that order (a filter's or a re-indexing's gather); a negative
     * position takes {@code fill} instead.
     *
     * @param positions entries of these values, or negative for the fill
     * @param n how many positions to take
     * @param fill the value at a negative position
     * @return new values of the same type
     */
    public ExactValues gather(int[] positions, int n, float fill) {
        return switch (arrayType(dtype)) {
            case INT32 -> {
                int[] from = (int[]) array;
                int[] out = new int[n];
                for (int i = 0; i < n; i++) {
                    int p = positions[i];
                    out[i] = p >= 0 ? from[p] : (int) fill;
                }
                yield new ExactValues(dtype, out, n);
            }
            case FLOAT64 -> {
                double[] from = (double[]) array;
                double[] out = new double[n];
                for (int i = 0; i < n; i++) {
                    int p = positions[i];
                    out[i] = p >= 0 ? from[p] : fill;
                }
                yield new ExactValues(dtype, out, n);
            }
            default -> {
                long[] from = (long[]) array;
                long[] out = new long[n];
                for (int i = 0; i < n; i++) {
                    int p = positions[i];
                    out[i] = p >= 0 ? from[p] : (long) fill;
                }
                yield new ExactValues(dtype, out, n);
            }
        };
    }

    /**
     * The values of {@code n} parts, in order, as values of {@code dtype}: part {@code i}'s exact values where
     * {@code exact.get(i)} has them, else its first {@code lengths[i]} float values, which then hold its stored values
     * exactly. Null when no part has exact values.
     *
     * @param exact each part's exact values, or null where its float values are exact
     * @param floats each part's float values
     * @param lengths each part's number of values
     * @param dtype the type of the joined values (numpy's promotion of the parts' stored types)
     * @return the joined values, or null when every part's float values are exact
     */
    static @Nullable ExactValues join(
            List<@Nullable ExactValues> exact, List<float[]> floats, int[] lengths, DType dtype) {
        if (exact.stream().allMatch(Objects::isNull)) {
            return null;
        }
        int total = 0;
        for (int n : lengths) {
            total = Math.addExact(total, n);
        }
        ExactValues out = new ExactValues(dtype, newArray(dtype, total), total);
        int at = 0;
        for (int i = 0; i < lengths.length; i++) {
            ExactValues part = exact.get(i);
            if (part == null) {
                out.putFloats(floats.get(i), at, lengths[i]);
            } else {
                out.put(part, at);
            }
            at += lengths[i];
        }
        return out;
    }

    /**
     * A zeroed array for {@code n} values of {@code dtype}, of {@link #arrayType}'s kind.
     *
     * @param dtype a type {@link #mayLose} accepts
     * @param n the number of values
     * @return an {@code int[]}, {@code long[]} or {@code double[]}
     */
    public static Object newArray(DType dtype, int n) {
        return switch (arrayType(dtype)) {
            case INT32 -> new int[n];
            case FLOAT64 -> new double[n];
            default -> new long[n];
        };
    }

    private void putFloats(float[] v, int at, int n) {
        switch (arrayType(dtype)) {
            case INT32 -> {
                int[] a = (int[]) array;
                for (int i = 0; i < n; i++) {
                    a[at + i] = (int) v[i];
                }
            }
            case FLOAT64 -> {
                double[] a = (double[]) array;
                for (int i = 0; i < n; i++) {
                    a[at + i] = v[i];
                }
            }
            default -> {
                long[] a = (long[]) array;
                for (int i = 0; i < n; i++) {
                    a[at + i] = (long) v[i];
                }
            }
        }
    }

    /** {@code e}'s values at {@code at}, converted to this type (within numpy's promotion, so exactly). */
    private void put(ExactValues e, int at) {
        DType to = arrayType(dtype);
        DType from = arrayType(e.dtype);
        if (to == from) {
            System.arraycopy(e.array, 0, array, at, e.length);
            return;
        }
        for (int i = 0; i < e.length; i++) {
            switch (to) {
                case FLOAT64 -> ((double[]) array)[at + i] = e.doubleAt(i);
                case INT32 -> ((int[]) array)[at + i] = Math.toIntExact(e.longAt(i));
                default -> ((long[]) array)[at + i] = e.longAt(i);
            }
        }
    }

    /**
     * The value at {@code i} as the nearest double (exact for every value but integers past 2^53).
     *
     * @param i an entry
     * @return the value
     */
    public double doubleAt(int i) {
        return switch (arrayType(dtype)) {
            case INT32 -> ((int[]) array)[i];
            case FLOAT64 -> ((double[]) array)[i];
            case UINT64 -> {
                long v = ((long[]) array)[i];
                yield v >= 0 ? v : (v >>> 1) * 2.0 + (v & 1);
            }
            default -> ((long[]) array)[i];
        };
    }

    /**
     * The integer at {@code i} (a uint64's bits; a float64 cast).
     *
     * @param i an entry
     * @return the value
     */
    public long longAt(int i) {
        return switch (arrayType(dtype)) {
            case INT32 -> ((int[]) array)[i];
            case FLOAT64 -> (long) ((double[]) array)[i];
            default -> ((long[]) array)[i];
        };
    }

    /**
     * Whether the value at {@code i} is zero (a dense reader keeps the entries that are not).
     *
     * @param i an entry
     * @return true for 0 (and -0.0)
     */
    public boolean isZero(int i) {
        return doubleAt(i) == 0;
    }

    /** Bytes the array holds. */
    long sizeInBytes() {
        return (long) length * arrayType(dtype).size();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ExactValues e) || e.dtype != dtype) {
            return false;
        }
        return switch (arrayType(dtype)) {
            case INT32 -> Arrays.equals((int[]) array, (int[]) e.array);
            case FLOAT64 -> Arrays.equals((double[]) array, (double[]) e.array);
            default -> Arrays.equals((long[]) array, (long[]) e.array);
        };
    }

    @Override
    public int hashCode() {
        return 31 * dtype.hashCode()
                + switch (arrayType(dtype)) {
                    case INT32 -> Arrays.hashCode((int[]) array);
                    case FLOAT64 -> Arrays.hashCode((double[]) array);
                    default -> Arrays.hashCode((long[]) array);
                };
    }

    @Override
    public String toString() {
        return "ExactValues[" + length + " " + dtype + "]";
    }
}
