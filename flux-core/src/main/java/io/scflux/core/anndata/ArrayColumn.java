/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.DType;
import java.util.Objects;
import java.util.function.IntToDoubleFunction;
import java.util.function.IntUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A column stored as a plain 1-D array: numbers, bools ({@code array}) or strings ({@code string-array}); or a
 * {@link #computed} float column whose values are worked out from other columns each time it is read, so that it
 * holds no memory of its own (a million cells' {@code log1p_total_counts} is 4 MB less until it is written).
 */
public final class ArrayColumn implements Column {

    /** The values, or null for a computed column. */
    private final @Nullable DenseArray values;

    private final DType dtype;
    private final int size;
    private final @Nullable IntToDoubleFunction element;

    public ArrayColumn(DenseArray values) {
        if (values.ndim() != 1) {
            throw new IllegalArgumentException("a column needs a 1-D array, got " + values);
        }
        this.values = values;
        this.dtype = values.dtype();
        this.size = values.size();
        this.element = null;
    }

    private ArrayColumn(DType dtype, int size, IntToDoubleFunction element) {
        if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64) {
            throw new IllegalArgumentException("a computed column is float32 or float64, not " + dtype.numpyName());
        }
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size);
        }
        this.values = null;
        this.dtype = dtype;
        this.size = size;
        this.element = Objects.requireNonNull(element, "element");
    }

    /** A column over the given Java array (not copied): {@code double[]}, {@code int[]}, {@code String[]}... */
    public static ArrayColumn of(Object array) {
        return new ArrayColumn(DenseArray.of(array));
    }

    /**
     * A float32 or float64 column of {@code size} rows whose row {@code i} is {@code element(i)} rounded to
     * {@code dtype}, computed whenever it is read: {@code element} must keep giving the same value for a row.
     */
    public static ArrayColumn computed(DType dtype, int size, IntToDoubleFunction element) {
        return new ArrayColumn(dtype, size, element);
    }

    /** The values: the column's own array, or for a computed column a new array of them on each call. */
    public DenseArray values() {
        return values != null ? values : computedRows(size, i -> i);
    }

    /** True when the values are worked out on each read: a writer then takes them a slice at a time. */
    public boolean isComputed() {
        return values == null;
    }

    /** Row {@code i} as a double, as {@link DenseArray#getDouble} reads it; computed without an array. */
    public double getDouble(int i) {
        if (values != null) {
            return values.getDouble(i);
        }
        double v = Objects.requireNonNull(element, "element").applyAsDouble(Objects.checkIndex(i, size));
        return dtype == DType.FLOAT32 ? (float) v : v;
    }

    public DType dtype() {
        return dtype;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public Object get(int i) {
        if (values != null) {
            return values.get(i);
        }
        double v = getDouble(i);
        return dtype == DType.FLOAT32 ? (Object) (float) v : (Object) v;
    }

    @Override
    public ArrayColumn take(int[] rows) {
        return new ArrayColumn(values != null ? values.take(rows) : computedRows(rows.length, k -> rows[k]));
    }

    /** The values of {@code n} rows, the k-th being row {@code row(k)}, worked out into a new array. */
    private DenseArray computedRows(int n, IntUnaryOperator row) {
        if (dtype == DType.FLOAT32) {
            float[] out = new float[n];
            for (int k = 0; k < n; k++) {
                out[k] = (float) getDouble(row.applyAsInt(k));
            }
            return DenseArray.of(out);
        }
        double[] out = new double[n];
        for (int k = 0; k < n; k++) {
            out[k] = getDouble(row.applyAsInt(k));
        }
        return DenseArray.of(out);
    }

    @Override
    public String typeName() {
        return dtype == DType.STRING ? "object" : dtype.numpyName();
    }

    /** Equal to another array column of equal values, held or computed. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ArrayColumn other && values().equals(other.values());
    }

    @Override
    public int hashCode() {
        return values().hashCode();
    }

    @Override
    public String toString() {
        return "ArrayColumn[" + (values != null ? values : "computed " + dtype + " x " + size) + "]";
    }
}
