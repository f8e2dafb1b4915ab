/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.DType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pandas categorical: the categories (all of them, used or not, in their order), one code per row (-1 where
 * missing), and whether the order is meaningful. {@code codeType} is the integer type the codes are stored with.
 *
 * <p>Codes of type int8 (fewer than 127 categories, as pandas stores them) are held in a byte each, others in an int:
 * a million cells' sample column takes 1 MB, not 4.
 */
public final class CategoricalColumn implements Column {

    private final DenseArray categories;
    /** The codes when {@code codeType} is int8, else null. */
    private final byte @Nullable [] narrow;
    /** The codes otherwise, else null. */
    private final int @Nullable [] wide;

    private final boolean ordered;
    private final DType codeType;

    /** The categorical of {@code codes} (copied into bytes when {@code codeType} is int8), checked against them. */
    public CategoricalColumn(DenseArray categories, int[] codes, boolean ordered, DType codeType) {
        this(categories, held(codes, codeType), ordered, codeType);
    }

    /** {@code codes}: a byte[] or an int[]. */
    private CategoricalColumn(DenseArray categories, Object codes, boolean ordered, DType codeType) {
        if (categories.ndim() != 1) {
            throw new IllegalArgumentException("categories must be 1-D, got " + categories);
        }
        if (!codeType.isInteger() || codeType.isUnsigned()) {
            throw new IllegalArgumentException("codes must be a signed integer type, got " + codeType);
        }
        this.categories = categories;
        this.narrow = codes instanceof byte[] b ? b : null;
        this.wide = codes instanceof int[] w ? w : null;
        this.ordered = ordered;
        this.codeType = codeType;
        int n = categories.size();
        for (int i = 0, size = size(); i < size; i++) {
            int c = code(i);
            if (c < -1 || c >= n) {
                throw new IllegalArgumentException("code " + c + " at row " + i + " outside [-1, " + n + ")");
            }
        }
    }

    /** The categorical of int8 {@code codes} as stored (held, not copied), checked against the categories. */
    public static CategoricalColumn ofInt8(DenseArray categories, byte[] codes, boolean ordered) {
        return new CategoricalColumn(categories, (Object) codes, ordered, DType.INT8);
    }

    /** Int8 codes as bytes when they fit (they do unless the type was mislabelled), others as they are. */
    private static Object held(int[] codes, DType codeType) {
        if (codeType != DType.INT8) {
            return codes;
        }
        byte[] b = new byte[codes.length];
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] != (byte) codes[i]) {
                return codes;
            }
            b[i] = (byte) codes[i];
        }
        return b;
    }

    /** The categorical of these string values, categories sorted as pandas sorts them, codes in the smallest type. */
    public static CategoricalColumn fromValues(@Nullable String[] values) {
        String[] cats =
                Arrays.stream(values).filter(v -> v != null).distinct().sorted().toArray(String[]::new);
        Map<String, Integer> pos = new HashMap<>();
        for (int i = 0; i < cats.length; i++) {
            pos.put(cats[i], i);
        }
        int[] codes = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            Integer at = pos.get(values[i]); // none for a missing value
            codes[i] = at == null ? -1 : at;
        }
        return new CategoricalColumn(DenseArray.of(cats), codes, false, smallestCodeType(cats.length));
    }

    /** The smallest signed type pandas would store codes for {@code n} categories in. */
    public static DType smallestCodeType(int n) {
        if (n < Byte.MAX_VALUE) {
            return DType.INT8;
        } else if (n < Short.MAX_VALUE) {
            return DType.INT16;
        }
        return DType.INT32;
    }

    public DenseArray categories() {
        return categories;
    }

    public boolean ordered() {
        return ordered;
    }

    public DType codeType() {
        return codeType;
    }

    /** The code of row {@code i}: a category's position, -1 where missing. */
    public int code(int i) {
        return narrow != null ? narrow[i] : Objects.requireNonNull(wide)[i];
    }

    /** Every row's code, as a new array of ints (for small columns and tests: a hot loop reads {@link #code}). */
    public int[] codes() {
        if (wide != null) {
            return wide.clone();
        }
        byte[] held = Objects.requireNonNull(narrow); // one of the two holds the codes
        int[] out = new int[held.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = held[i];
        }
        return out;
    }

    /** The codes as they are held, int8 or int32, not copied: what a writer stores as {@link #codeType}. */
    public DenseArray codeArray() {
        return narrow != null
                ? DenseArray.of(DType.INT8, narrow, narrow.length)
                : DenseArray.of(DType.INT32, Objects.requireNonNull(wide), wide.length);
    }

    @Override
    public int size() {
        return narrow != null ? narrow.length : Objects.requireNonNull(wide).length;
    }

    @Override
    public @Nullable Object get(int i) {
        int c = code(i);
        return c < 0 ? null : categories.get(c);
    }

    @Override
    public CategoricalColumn take(int[] rows) {
        if (narrow != null) {
            byte[] out = new byte[rows.length];
            for (int i = 0; i < rows.length; i++) {
                out[i] = narrow[rows[i]];
            }
            return new CategoricalColumn(categories, (Object) out, ordered, codeType);
        }
        int[] held = Objects.requireNonNull(wide);
        int[] out = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            out[i] = held[rows[i]];
        }
        return new CategoricalColumn(categories, (Object) out, ordered, codeType);
    }

    @Override
    public String typeName() {
        return "category";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CategoricalColumn c)
                || !categories.equals(c.categories)
                || ordered != c.ordered
                || codeType != c.codeType
                || size() != c.size()) {
            return false;
        }
        for (int i = 0, n = size(); i < n; i++) {
            if (code(i) != c.code(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = categories.hashCode();
        for (int i = 0, n = size(); i < n; i++) {
            h = 31 * h + code(i);
        }
        return h;
    }

    @Override
    public String toString() {
        return "CategoricalColumn[" + categories.size() + " categories, " + size() + " rows"
                + (ordered ? ", ordered" : "") + "]";
    }
}
