/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.plot;

import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.NullableColumn;
import org.jspecify.annotations.Nullable;

/** An obs column's numbers, as the plots colour and bin them: plain or nullable numeric columns, NaN where missing. */
final class NumericColumns {

    private NumericColumns() {}

    /** Whether {@code column} holds numbers (plain or nullable), not strings, bools or categories. */
    static boolean isNumeric(Column column) {
        return values(column) != null;
    }

    /** The values of a numeric column as doubles, NaN where missing; {@code what} names it in the error. */
    static double[] numbers(Column column, String what) {
        DenseArray values = values(column);
        if (values == null) {
            throw new IllegalArgumentException(what + " is not numeric (" + column.typeName() + ")");
        }
        boolean[] mask = column instanceof NullableColumn n ? n.mask() : null;
        double[] out = new double[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = mask != null && mask[i] ? Double.NaN : values.getDouble(i);
        }
        return out;
    }

    /** The 1-d numeric values of {@code column}, or null when it holds no numbers. */
    private static @Nullable DenseArray values(Column column) {
        DenseArray values =
                column instanceof ArrayColumn a ? a.values() : column instanceof NullableColumn n ? n.values() : null;
        return values != null && values.ndim() == 1 && values.dtype().isNumeric() ? values : null;
    }
}
