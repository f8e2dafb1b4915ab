/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.api.Node;
import io.scflux.core.DType;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.NullableColumn;
import io.scflux.io.hdf5.ArrayReader;
import io.scflux.io.hdf5.Hdf5;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads one dataframe column in any of anndata's column encodings: {@code array}, {@code string-array},
 * {@code categorical}, {@code nullable-integer}, {@code nullable-boolean} and {@code nullable-string-array}.
 */
final class ColumnReader {

    private ColumnReader() {}

    /** True for the encodings that only a column has: categorical and the nullable arrays. */
    static boolean isColumnEncoding(String encoding) {
        return "categorical".equals(encoding) || encoding.startsWith("nullable-");
    }

    /**
     * The column at {@code node}. Its {@code encoding-type} is required; an encoding-less plain dataset is accepted
     * only where {@code plainAllowed} (dataframes of anndata 0.7, encoding-version 0.1.0).
     */
    static Column read(Node node, boolean plainAllowed) {
        return Hdf5.guard(node, () -> {
            String encoding = Hdf5.encodingType(node);
            if (encoding == null) {
                if (plainAllowed && !node.isGroup()) {
                    return new ArrayColumn(ArrayReader.vector(node));
                }
                throw Hdf5.error(
                        node,
                        "missing attribute 'encoding-type': expected a column encoding (array, "
                                + "string-array, categorical, nullable-integer, nullable-boolean, nullable-string-array)");
            }
            switch (encoding) {
                case "array":
                case "string-array":
                    return new ArrayColumn(ArrayReader.vector(node));
                case "categorical":
                    return categorical(
                            Hdf5.child(node, "codes"),
                            Hdf5.child(node, "categories"),
                            Hdf5.boolAttr(node, "ordered", false));
                case "nullable-integer":
                case "nullable-boolean":
                case "nullable-string-array":
                    return nullable(node, encoding);
                default:
                    throw Hdf5.error(node, "unknown column encoding-type '" + encoding + "'");
            }
        });
    }

    /** A categorical from its codes dataset and categories (strings or numbers, all kept in their order). */
    static CategoricalColumn categorical(Node codesNode, Node categoriesNode, boolean ordered) {
        DenseArray categories = categoriesNode.isGroup()
                ? DenseArray.of(ArrayReader.strings(categoriesNode))
                : ArrayReader.vector(categoriesNode);
        if (categories.dtype() == DType.STRING) {
            Set<String> seen = new HashSet<>();
            for (String c : categories.strings()) {
                if (!seen.add(c)) {
                    throw Hdf5.error(
                            categoriesNode,
                            "category '" + c + "' repeats; pandas' categories are unique "
                                    + "(\"Categorical categories must be unique\")");
                }
            }
        }
        DenseArray codes = ArrayReader.vector(codesNode);
        DType t = codes.dtype();
        if (!t.isInteger() || t.isUnsigned()) {
            throw Hdf5.error(codesNode, "expected signed integer codes (int8, int16, int32 or int64), found " + t);
        }
        int n = categories.size();
        int[] wide = t == DType.INT8 ? null : new int[codes.size()]; // int8 codes are kept as the bytes read
        for (int i = 0, size = codes.size(); i < size; i++) {
            double c = codes.getDouble(i);
            if (c < -1 || c >= n) {
                throw Hdf5.error(
                        codesNode,
                        "code " + (long) c + " at row " + i + " is outside [-1, " + n + "): " + "there are " + n
                                + " categories");
            }
            if (wide != null) {
                wide[i] = (int) c;
            }
        }
        return wide == null
                ? CategoricalColumn.ofInt8(categories, (byte[]) codes.data(), ordered)
                : new CategoricalColumn(categories, wide, ordered, t);
    }

    private static NullableColumn nullable(Node node, String encoding) {
        Node valuesNode = Hdf5.child(node, "values");
        DenseArray values = ArrayReader.vector(valuesNode);
        DType t = values.dtype();
        String kind = switch (encoding) {
            case "nullable-integer" -> "integer";
            case "nullable-boolean" -> "bool";
            default -> "string";
        };
        boolean fits =
                kind.equals("integer") ? t.isInteger() : kind.equals("bool") ? t == DType.BOOL : t == DType.STRING;
        if (!fits) {
            throw Hdf5.error(valuesNode, "expected " + kind + " values for " + encoding + ", found " + t);
        }
        Node maskNode = Hdf5.childOrNull(node, "mask");
        boolean[] mask = maskNode == null ? new boolean[values.size()] : ArrayReader.bools(maskNode);
        if (maskNode != null && mask.length != values.size()) {
            throw Hdf5.error(
                    maskNode, "expected " + values.size() + " mask entries (one per value), found " + mask.length);
        }
        return new NullableColumn(values, mask);
    }
}
