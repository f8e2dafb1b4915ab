/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.values;

import io.scflux.core.DType;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.NullableColumn;
import java.util.Comparator;
import org.jspecify.annotations.Nullable;

/**
 * The values of a column of strings, null where missing, and Python's order of strings: how the grouping steps
 * (rank_genes_groups' groups, pseudobulk's samples and groups) read an obs column of labels and sort its names as
 * scanpy and decoupler do. Public because those steps live in packages of their own.
 */
public final class StringValues {

    /** Python's order of strings: by code point (Java's {@code compareTo} orders UTF-16 units). */
    public static final Comparator<String> PYTHON_ORDER = StringValues::compareCodePoints;

    private StringValues() {}

    /**
     * {@code c}'s strings (null where its mask says missing; a copy then), or null when {@code c} holds no strings.
     *
     * @param c an obs or var column
     * @return its strings, or null when it holds none
     */
    public static @Nullable String @Nullable [] of(Column c) {
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

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }
}
