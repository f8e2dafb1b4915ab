package io.scflux.core.anndata;

import io.scflux.core.DType;

/** A column stored as a plain 1-D array: numbers, bools ({@code array}) or strings ({@code string-array}). */
public record ArrayColumn(DenseArray values) implements Column {

    public ArrayColumn {
        if (values.ndim() != 1) {
            throw new IllegalArgumentException("a column needs a 1-D array, got " + values);
        }
    }

    /** A column over the given Java array (not copied): {@code double[]}, {@code int[]}, {@code String[]}... */
    public static ArrayColumn of(Object array) {
        return new ArrayColumn(DenseArray.of(array));
    }

    @Override
    public int size() {
        return values.size();
    }

    @Override
    public Object get(int i) {
        return values.get(i);
    }

    @Override
    public ArrayColumn take(int[] rows) {
        return new ArrayColumn(values.take(rows));
    }

    @Override
    public String typeName() {
        return values.dtype() == DType.STRING ? "object" : values.dtype().numpyName();
    }
}
