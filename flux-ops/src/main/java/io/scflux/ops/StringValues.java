/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.DType;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.NullableColumn;
import org.jspecify.annotations.Nullable;

/** The values of a column of strings, null where missing: how the grouping steps read an obs column of labels. */
final class StringValues {

    private StringValues() {}

    /** {@code c}'s strings (null where its mask says missing; a copy then), or null when {@code c} holds no strings. */
    static String @Nullable [] of(Column c) {
        if (c instanceof ArrayColumn a && a.dtype() == DType.STRING) {
            return a.values().strings();
        }
        if (c instanceof NullableColumn n && n.values().dtype() == DType.STRING) {
            String[] out = n.values().strings().clone();
            for (int i = 0; i < out.length; i++) {
                if (n.mask()[i]) {
                    out[i] = null;
                }
            }
            return out;
        }
        return null;
    }
}
