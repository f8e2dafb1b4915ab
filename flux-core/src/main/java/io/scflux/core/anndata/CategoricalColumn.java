package io.scflux.core.anndata;

import io.scflux.core.DType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A pandas categorical: the categories (all of them, used or not, in their order), one code per row (-1 where
 * missing), and whether the order is meaningful. {@code codeType} is the integer type the codes are stored with.
 */
public record CategoricalColumn(DenseArray categories, int[] codes, boolean ordered, DType codeType)
        implements Column {

    public CategoricalColumn {
        if (categories.ndim() != 1) {
            throw new IllegalArgumentException("categories must be 1-D, got " + categories);
        }
        if (!codeType.isInteger() || codeType.isUnsigned()) {
            throw new IllegalArgumentException("codes must be a signed integer type, got " + codeType);
        }
        int n = categories.size();
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] < -1 || codes[i] >= n) {
                throw new IllegalArgumentException("code " + codes[i] + " at row " + i + " outside [-1, " + n + ")");
            }
        }
    }

    /** The categorical of these string values, categories sorted as pandas sorts them, codes in the smallest type. */
    public static CategoricalColumn fromValues(String[] values) {
        String[] cats = Arrays.stream(values).filter(v -> v != null).distinct().sorted().toArray(String[]::new);
        Map<String, Integer> pos = new HashMap<>();
        for (int i = 0; i < cats.length; i++) {
            pos.put(cats[i], i);
        }
        int[] codes = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            codes[i] = values[i] == null ? -1 : pos.get(values[i]);
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

    @Override
    public int size() {
        return codes.length;
    }

    @Override
    public Object get(int i) {
        int c = codes[i];
        return c < 0 ? null : categories.get(c);
    }

    @Override
    public CategoricalColumn take(int[] rows) {
        int[] out = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            out[i] = codes[rows[i]];
        }
        return new CategoricalColumn(categories, out, ordered, codeType);
    }

    @Override
    public String typeName() {
        return "category";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CategoricalColumn c && categories.equals(c.categories) && Arrays.equals(codes, c.codes)
                && ordered == c.ordered && codeType == c.codeType;
    }

    @Override
    public int hashCode() {
        return 31 * categories.hashCode() + Arrays.hashCode(codes);
    }

    @Override
    public String toString() {
        return "CategoricalColumn[" + categories.size() + " categories, " + codes.length + " rows"
                + (ordered ? ", ordered" : "") + "]";
    }
}
