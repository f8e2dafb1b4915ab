/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.DType;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.NullableColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One obs column of several frames stacked by rows, typed as anndata's concat types it (pandas {@code concat} after
 * anndata's {@code unify_dtypes}), where a frame that lacks the column contributes missing values:
 * <ul>
 * <li>categoricals: the union of the categories in natural order (natsort), unordered, missing rows coded -1; an
 *     ordered categorical keeps its order when every part has the same categories;</li>
 * <li>numbers: numpy's promotion; missing values are NaN in floats, and turn integers into float64 (nullable
 *     integers stay nullable); bools with missing values become a nullable boolean (pandas: object);</li>
 * <li>strings: a string array; with missing values a categorical, as {@code write_h5ad} stores such an object
 *     column (a nullable string column stays nullable);</li>
 * <li>anything else mixed: a categorical of the values' text.</li>
 * </ul>
 */
final class ColumnConcat {

    private ColumnConcat() {}

    /** The column over parts of {@code lengths[i]} rows; {@code parts.get(i)} is null where frame i lacks it. */
    static Column concat(List<Column> parts, int[] lengths) {
        List<Column> present = parts.stream().filter(c -> c != null).toList();
        boolean missing = present.size() < parts.size();
        if (present.stream().allMatch(c -> c instanceof CategoricalColumn)) {
            return categorical(parts, lengths);
        }
        if (present.stream().allMatch(c -> !(c instanceof CategoricalColumn))) {
            List<DenseArray> values = new ArrayList<>();
            parts.forEach(c -> values.add(c == null ? null : valuesOf(c)));
            boolean strings = present.stream().allMatch(c -> valuesOf(c).dtype() == DType.STRING);
            boolean numbers = present.stream().allMatch(c -> valuesOf(c).dtype() != DType.STRING);
            boolean nullable = present.stream().anyMatch(c -> c instanceof NullableColumn);
            if (numbers || strings) {
                DType t = Stack.type(values);
                if (t.isFloat() || (!nullable && !missing)) {
                    return new ArrayColumn(Stack.rows(t, values, lengths));
                }
                if (t.isInteger() && !nullable) {
                    return new ArrayColumn(Stack.rows(DType.FLOAT64, values, lengths));
                }
                if (t == DType.STRING && !nullable) {
                    return CategoricalColumn.fromValues(texts(parts, lengths));
                }
                return new NullableColumn(Stack.rows(t, values, lengths), mask(parts, lengths));
            }
        }
        return CategoricalColumn.fromValues(texts(parts, lengths));
    }

    private static DenseArray valuesOf(Column c) {
        return c instanceof ArrayColumn a ? a.values() : ((NullableColumn) c).values();
    }

    /** True where a row's value is missing (its frame lacks the column, or the column masks it). */
    private static boolean[] mask(List<Column> parts, int[] lengths) {
        boolean[] m = new boolean[Arrays.stream(lengths).sum()];
        int at = 0;
        for (int p = 0; p < parts.size(); p++) {
            Column c = parts.get(p);
            if (c == null) {
                Arrays.fill(m, at, at + lengths[p], true);
            } else if (c instanceof NullableColumn n) {
                System.arraycopy(n.mask(), 0, m, at, lengths[p]);
            }
            at += lengths[p];
        }
        return m;
    }

    /** Every value as text, null where missing. */
    private static String[] texts(List<Column> parts, int[] lengths) {
        String[] out = new String[Arrays.stream(lengths).sum()];
        int at = 0;
        for (int p = 0; p < parts.size(); p++) {
            Column c = parts.get(p);
            for (int i = 0; c != null && i < lengths[p]; i++) {
                Object v = c.get(i);
                out[at + i] = v == null ? null : v.toString();
            }
            at += lengths[p];
        }
        return out;
    }

    private static Column categorical(List<Column> parts, int[] lengths) {
        List<DenseArray> cats = new ArrayList<>();
        boolean ordered = false;
        boolean same = true;
        DenseArray first = null;
        for (Column c : parts) {
            CategoricalColumn k = (CategoricalColumn) c;
            cats.add(k == null ? null : k.categories());
            if (k != null) {
                ordered |= k.ordered();
                same &= first == null || first.equals(k.categories());
                first = first == null ? k.categories() : first;
            }
        }
        DenseArray categories;
        int[] offsets = new int[parts.size() + 1];
        int[] sizes = new int[parts.size()];
        for (int p = 0; p < parts.size(); p++) {
            sizes[p] = cats.get(p) == null ? 0 : cats.get(p).size();
            offsets[p + 1] = offsets[p] + sizes[p];
        }
        DenseArray all = Stack.rows(Stack.type(cats), cats, sizes);
        Map<Object, Integer> code = new HashMap<>();
        if (ordered && same && first != null) { // ordered: some part is categorical, so first is set
            categories = first;
            for (int k = 0; k < first.size(); k++) {
                code.put(all.get(k), k);
            }
        } else {
            Comparator<Integer> order = all.dtype() == DType.STRING
                    ? (x, y) -> NaturalOrder.INSTANCE.compare(all.strings()[x], all.strings()[y])
                    : (x, y) -> Double.compare(all.getDouble(x), all.getDouble(y));
            Integer[] positions = new Integer[all.size()];
            for (int k = 0; k < positions.length; k++) {
                positions[k] = k;
            }
            Arrays.sort(positions, order);
            int[] unique = new int[positions.length];
            int n = 0;
            for (Integer k : positions) {
                if (!code.containsKey(all.get(k))) {
                    code.put(all.get(k), n);
                    unique[n++] = k;
                }
            }
            categories = all.take(Arrays.copyOf(unique, n));
        }
        int[] codes = new int[Arrays.stream(lengths).sum()];
        int at = 0;
        for (int p = 0; p < parts.size(); p++) {
            CategoricalColumn k = (CategoricalColumn) parts.get(p);
            if (k == null) {
                Arrays.fill(codes, at, at + lengths[p], -1);
            } else {
                int[] remap = new int[sizes[p]];
                for (int c = 0; c < remap.length; c++) {
                    remap[c] = Objects.requireNonNull(code.get(all.get(offsets[p] + c)), "coded above");
                }
                for (int i = 0; i < lengths[p]; i++) {
                    int c = k.code(i);
                    codes[at + i] = c < 0 ? -1 : remap[c];
                }
            }
            at += lengths[p];
        }
        return new CategoricalColumn(
                categories, codes, ordered && same, CategoricalColumn.smallestCodeType(categories.size()));
    }
}
