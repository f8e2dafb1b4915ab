/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.DType;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A pandas nullable column ({@code Int64}, {@code boolean}, {@code string}): values plus a mask that is true where
 * the value is missing, as anndata stores {@code nullable-integer}, {@code nullable-boolean} and
 * {@code nullable-string-array}.
 */
public record NullableColumn(DenseArray values, boolean[] mask) implements Column {

    public NullableColumn {
        if (values.ndim() != 1 || values.size() != mask.length) {
            throw new IllegalArgumentException("values " + values + " and mask of " + mask.length + " disagree");
        }
        if (values.dtype().isFloat()) {
            throw new IllegalArgumentException(
                    "nullable columns hold integers, bools or strings, not " + values.dtype());
        }
    }

    @Override
    public int size() {
        return mask.length;
    }

    @Override
    public @Nullable Object get(int i) {
        return mask[i] ? null : values.get(i);
    }

    @Override
    public NullableColumn take(int[] rows) {
        boolean[] m = new boolean[rows.length];
        for (int i = 0; i < rows.length; i++) {
            m[i] = mask[rows[i]];
        }
        return new NullableColumn(values.take(rows), m);
    }

    /** The anndata encoding: {@code nullable-integer}, {@code nullable-boolean} or {@code nullable-string-array}. */
    public String encoding() {
        DType t = values.dtype();
        return t == DType.BOOL ? "nullable-boolean" : t == DType.STRING ? "nullable-string-array" : "nullable-integer";
    }

    @Override
    public String typeName() {
        DType t = values.dtype();
        if (t == DType.BOOL) {
            return "boolean";
        }
        if (t == DType.STRING) {
            return "string";
        }
        String n = t.numpyName();
        return (t.isUnsigned() ? "U" : "")
                + Character.toUpperCase(n.charAt(t.isUnsigned() ? 1 : 0))
                + n.substring(t.isUnsigned() ? 2 : 1);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NullableColumn c && values.equals(c.values) && Arrays.equals(mask, c.mask);
    }

    @Override
    public int hashCode() {
        return 31 * values.hashCode() + Arrays.hashCode(mask);
    }

    @Override
    public String toString() {
        return "NullableColumn[" + typeName() + ", " + mask.length + " rows]";
    }
}
