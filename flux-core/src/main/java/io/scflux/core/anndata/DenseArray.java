/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.DType;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Objects;

/**
 * An n-dimensional array held in memory in row-major order, as numpy holds it: obsm/varm embeddings, uns arrays and
 * scalars (shape {@code []}), dataframe column values. The data is a primitive Java array whose type follows the
 * {@link DType} ({@code boolean[]}, {@code byte[]}, {@code short[]}, {@code int[]}, {@code long[]}, {@code float[]},
 * {@code double[]} or {@code String[]}); unsigned types use the signed array of the same width.
 */
public final class DenseArray {

    private final DType dtype;
    private final long[] shape;
    private final Object data;

    private DenseArray(DType dtype, long[] shape, Object data) {
        this.dtype = Objects.requireNonNull(dtype, "dtype");
        this.shape = shape.clone();
        this.data = Objects.requireNonNull(data, "data");
        Class<?> expected = javaType(dtype);
        if (data.getClass() != expected && !(dtype == DType.STRING && data instanceof PackedStrings)) {
            throw new IllegalArgumentException(dtype + " needs a " + expected.getSimpleName() + ", got "
                    + data.getClass().getSimpleName());
        }
        long n = 1;
        for (long d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException("negative dimension in " + Arrays.toString(shape));
            }
            n *= d;
        }
        if (n != length(data)) {
            throw new IllegalArgumentException(
                    "shape " + Arrays.toString(shape) + " holds " + n + " elements, data has " + length(data));
        }
    }

    private static int length(Object data) {
        return data instanceof PackedStrings p ? p.size() : Array.getLength(data);
    }

    /** A 1-D str array over packed strings (a large index is written from them without making a String each). */
    public static DenseArray of(PackedStrings strings) {
        return new DenseArray(DType.STRING, new long[] {strings.size()}, strings);
    }

    /** An array over {@code data} (not copied) with the given type and shape. */
    public static DenseArray of(DType dtype, Object data, long... shape) {
        return new DenseArray(dtype, shape, data);
    }

    /** A 1-D array of the Java array's natural type (signed integers, float32, float64, bool, str). */
    public static DenseArray of(Object data) {
        return new DenseArray(naturalType(data), new long[] {Array.getLength(data)}, data);
    }

    /**
     * A 2-D float32 array of every entry of {@code source} (zeros where nothing is stored), read block by block: how a
     * lazy dense element (as {@code obsm["X_pca"]}) is brought into memory.
     */
    public static DenseArray materialize(io.scflux.core.BlockSource source) {
        long cells = source.nRows() * (long) source.nCols();
        if (cells > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(source.describe() + " has " + cells + " entries, more than one array");
        }
        int cols = source.nCols();
        float[] out = new float[(int) cells];
        source.blocks()
                .doOnNext(b -> {
                    int[] ip = b.indptr();
                    for (int r = 0; r < b.nRows(); r++) {
                        int base = (int) (b.rowStart() + r) * cols;
                        for (int k = ip[r]; k < ip[r + 1]; k++) {
                            out[base + b.indices()[k]] = b.values()[k];
                        }
                    }
                })
                .blockLast();
        return of(DType.FLOAT32, out, source.nRows(), cols);
    }

    /** A 0-dimensional array holding one value (uns scalars). */
    public static DenseArray scalar(Object value) {
        Objects.requireNonNull(value, "value");
        if (value instanceof String s) {
            return of(DType.STRING, new String[] {s});
        }
        if (value instanceof Boolean b) {
            return of(DType.BOOL, new boolean[] {b});
        }
        if (value instanceof Byte b) {
            return of(DType.INT8, new byte[] {b});
        }
        if (value instanceof Short s) {
            return of(DType.INT16, new short[] {s});
        }
        if (value instanceof Integer i) {
            return of(DType.INT32, new int[] {i});
        }
        if (value instanceof Long l) {
            return of(DType.INT64, new long[] {l});
        }
        if (value instanceof Float f) {
            return of(DType.FLOAT32, new float[] {f});
        }
        if (value instanceof Double d) {
            return of(DType.FLOAT64, new double[] {d});
        }
        throw new IllegalArgumentException(
                "not a scalar type: " + value.getClass().getName());
    }

    /** The Java array class that holds elements of {@code dtype}. */
    public static Class<?> javaType(DType dtype) {
        switch (dtype) {
            case BOOL:
                return boolean[].class;
            case INT8:
            case UINT8:
                return byte[].class;
            case INT16:
            case UINT16:
                return short[].class;
            case INT32:
            case UINT32:
                return int[].class;
            case INT64:
            case UINT64:
                return long[].class;
            case FLOAT32:
                return float[].class;
            case FLOAT64:
                return double[].class;
            default:
                return String[].class;
        }
    }

    private static DType naturalType(Object data) {
        Class<?> c = data.getClass();
        if (c == boolean[].class) {
            return DType.BOOL;
        } else if (c == byte[].class) {
            return DType.INT8;
        } else if (c == short[].class) {
            return DType.INT16;
        } else if (c == int[].class) {
            return DType.INT32;
        } else if (c == long[].class) {
            return DType.INT64;
        } else if (c == float[].class) {
            return DType.FLOAT32;
        } else if (c == double[].class) {
            return DType.FLOAT64;
        } else if (c == String[].class) {
            return DType.STRING;
        }
        throw new IllegalArgumentException("not an array type scflux stores: " + c.getName());
    }

    public DType dtype() {
        return dtype;
    }

    public long[] shape() {
        return shape.clone();
    }

    public int ndim() {
        return shape.length;
    }

    /** Length of the first axis (1 for a scalar). */
    public int length() {
        return shape.length == 0 ? 1 : (int) shape[0];
    }

    public boolean isScalar() {
        return shape.length == 0;
    }

    /** Number of elements. */
    public int size() {
        return length(data);
    }

    /** The backing array (not a copy). */
    public Object data() {
        return data;
    }

    /** Element {@code i} of the flat data as a double (unsigned types read unsigned, bool as 0/1). */
    public double getDouble(int i) {
        switch (dtype) {
            case BOOL:
                return ((boolean[]) data)[i] ? 1 : 0;
            case INT8:
                return ((byte[]) data)[i];
            case UINT8:
                return Byte.toUnsignedInt(((byte[]) data)[i]);
            case INT16:
                return ((short[]) data)[i];
            case UINT16:
                return Short.toUnsignedInt(((short[]) data)[i]);
            case INT32:
                return ((int[]) data)[i];
            case UINT32:
                return Integer.toUnsignedLong(((int[]) data)[i]);
            case INT64:
                return ((long[]) data)[i];
            case UINT64: {
                long v = ((long[]) data)[i];
                return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
            }
            case FLOAT32:
                return ((float[]) data)[i];
            case FLOAT64:
                return ((double[]) data)[i];
            default:
                throw new UnsupportedOperationException("str array has no numeric value");
        }
    }

    /** Element {@code i} of the flat data boxed as its natural Java value (strings, booleans, numbers). */
    public Object get(int i) {
        switch (dtype) {
            case STRING:
                return data instanceof PackedStrings p ? p.get(i) : ((String[]) data)[i];
            case BOOL:
                return ((boolean[]) data)[i];
            case INT8:
                return ((byte[]) data)[i];
            case INT16:
                return ((short[]) data)[i];
            case INT32:
                return ((int[]) data)[i];
            case INT64:
                return ((long[]) data)[i];
            case UINT8:
                return Byte.toUnsignedInt(((byte[]) data)[i]);
            case UINT16:
                return Short.toUnsignedInt(((short[]) data)[i]);
            case UINT32:
                return Integer.toUnsignedLong(((int[]) data)[i]);
            case UINT64:
                return Long.toUnsignedString(((long[]) data)[i]);
            case FLOAT32:
                return ((float[]) data)[i];
            default:
                return ((double[]) data)[i];
        }
    }

    /** The elements of the flat data as strings (for str arrays, the array itself). */
    public String[] strings() {
        if (dtype == DType.STRING) {
            return data instanceof PackedStrings p ? p.toArray() : (String[]) data;
        }
        throw new UnsupportedOperationException(dtype + " array is not a str array");
    }

    /** The rows {@code rows} of the first axis, in that order (a copy). */
    public DenseArray take(int[] rows) {
        if (shape.length == 0) {
            throw new UnsupportedOperationException("cannot take rows of a scalar");
        }
        if (data instanceof PackedStrings p) {
            return of(p.take(rows));
        }
        int stride = shape[0] == 0 ? 0 : size() / (int) shape[0];
        Object out = Array.newInstance(data.getClass().getComponentType(), rows.length * stride);
        for (int i = 0; i < rows.length; i++) {
            int r = rows[i];
            if (r < 0 || r >= shape[0]) {
                throw new IndexOutOfBoundsException("row " + r + " outside [0, " + shape[0] + ")");
            }
            System.arraycopy(data, r * stride, out, i * stride, stride);
        }
        long[] s = shape.clone();
        s[0] = rows.length;
        return new DenseArray(dtype, s, out);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DenseArray a) || dtype != a.dtype || !Arrays.equals(shape, a.shape)) {
            return false;
        }
        Object mine = data instanceof PackedStrings p ? p.toArray() : data;
        Object theirs = a.data instanceof PackedStrings p ? p.toArray() : a.data;
        return Arrays.deepEquals(new Object[] {mine}, new Object[] {theirs});
    }

    @Override
    public int hashCode() {
        Object mine = data instanceof PackedStrings p ? p.toArray() : data;
        return 31 * (31 * dtype.hashCode() + Arrays.hashCode(shape)) + Arrays.deepHashCode(new Object[] {mine});
    }

    @Override
    public String toString() {
        return "DenseArray[" + dtype + " " + Arrays.toString(shape) + "]";
    }
}
