/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.values;

import io.scflux.core.DType;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import java.util.function.IntToDoubleFunction;

/**
 * The numpy type a step's arithmetic runs in, which decides the bits of scanpy's columns: sums of float32 data stay
 * float32 (and so do the ratios and log1p values scanpy derives from them), float64 stays float64, integers sum to
 * int64 (unsigned to uint64) and their ratios and logarithms are float64.
 *
 * <p>Sums are accumulated in float64 and rounded once to this type: exact for counts, which is what scanpy's float32
 * sums give too while a total stays below 2^24.
 *
 * <p>Public because QC, filter, normalize_total and the fused pipeline, each in its own package, hold their sums in it.
 */
public enum SumType {
    FLOAT32(DType.FLOAT32),
    FLOAT64(DType.FLOAT64),
    INT64(DType.INT64),
    UINT64(DType.UINT64);

    private final DType dtype;

    SumType(DType dtype) {
        this.dtype = dtype;
    }

    /** The type of {@code X.sum(axis)} for X of {@code x} (numpy's sum dtype). */
    public static SumType summing(DType x) {
        if (x == DType.FLOAT32 || x == DType.FLOAT64) {
            return x == DType.FLOAT32 ? FLOAT32 : FLOAT64;
        }
        return x.isUnsigned() ? UINT64 : INT64;
    }

    /** The type normalize_total works in: float64 data stay float64, anything else is cast to float32 first. */
    public static SumType normalizing(DType x) {
        return x == DType.FLOAT64 ? FLOAT64 : FLOAT32;
    }

    DType dtype() {
        return dtype;
    }

    /** {@code v} as this type holds it (float64 sums of whole numbers are exact integers already). */
    public double round(double v) {
        return this == FLOAT32 ? (float) v : v;
    }

    /**
     * {@code np.log1p} of {@code size} sums of this type, {@code sum(i)} the i-th: float32 for float32 sums, float64
     * otherwise; a computed column, which holds nothing but {@code sum}.
     */
    public Column log1p(int size, IntToDoubleFunction sum) {
        return ArrayColumn.computed(ratioType().dtype, size, i -> Math.log1p(round(sum.applyAsDouble(i))));
    }

    /** The type of a quotient or logarithm of values of this type. */
    SumType ratioType() {
        return this == FLOAT32 ? FLOAT32 : FLOAT64;
    }
}
