/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.values;

import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;

/**
 * One value per cell (or gene), accumulated in float64 and held in its {@link SumType} as scanpy holds the column:
 * 4 bytes a cell for float32 data, not 8, and the array the column is written from, not a copy of it.
 *
 * <p>Public because QC, filter, normalize_total and the fused pipeline, each in its own package, share these columns.
 */
public final class TypedSums implements java.io.Serializable {

    private final SumType type;
    /** A {@code float[]}, {@code double[]} or {@code long[]} as the type holds its values. */
    private final Object values;

    private final int size;

    public TypedSums(SumType type, int size) {
        this.type = type;
        this.size = size;
        this.values = switch (type) {
            case FLOAT32 -> new float[size];
            case FLOAT64 -> new double[size];
            case INT64, UINT64 -> new long[size];
        };
    }

    /** {@code values} rounded to {@code type}. */
    public static TypedSums of(SumType type, double[] values) {
        TypedSums sums = new TypedSums(type, values.length);
        for (int i = 0; i < values.length; i++) {
            sums.set(i, values[i]);
        }
        return sums;
    }

    public SumType type() {
        return type;
    }

    int size() {
        return size;
    }

    /** Holds the float64 sum {@code v} as cell {@code i}'s, rounded to the type. */
    public void set(int i, double v) {
        switch (type) {
            case FLOAT32 -> ((float[]) values)[i] = (float) v;
            case FLOAT64 -> ((double[]) values)[i] = v;
            case INT64, UINT64 -> ((long[]) values)[i] = (long) v;
        }
    }

    /** Cell {@code i}'s sum as the type holds it. */
    public double get(int i) {
        return switch (type) {
            case FLOAT32 -> ((float[]) values)[i];
            case FLOAT64 -> ((double[]) values)[i];
            case INT64, UINT64 -> ((long[]) values)[i];
        };
    }

    /** Copies these sums into {@code whole} from cell {@code at} on (the same type). */
    public void copyInto(TypedSums whole, int at) {
        System.arraycopy(values, 0, whole.values, at, size);
    }

    /** The column of these sums, over their array (not copied). */
    public ArrayColumn column() {
        return new ArrayColumn(DenseArray.of(type.dtype(), values, size));
    }

    /**
     * {@code this / whole * 100} as scanpy computes it on two columns of one type (0 / 0 is NaN), computed.
     *
     * @param whole the totals this is a part of, of this type
     * @return the percentages, in the type of a quotient of this type
     */
    public Column percentOf(TypedSums whole) {
        SumType r = type.ratioType();
        return ArrayColumn.computed(
                r.dtype(), size(), i -> r.round(r.round(type.round(get(i)) / type.round(whole.get(i))) * 100));
    }
}
