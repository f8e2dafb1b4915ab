/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import io.scflux.core.DType;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.core.anndata.NullableColumn;
import io.scflux.ops.values.StringValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * decoupler's pseudobulk rows for a sample and a groups column of obs: one row for every pair of a group and a sample
 * present in the data (pairs without cells included), ordered by group then sample, each sorted as Python sorts
 * strings, and named {@code {sample}_{group}}; the row of every cell (-1 where its sample or group is missing); and
 * the obs columns that are constant within every pair of cells, which the rows keep.
 */
final class PseudobulkRows {

    private final Frame obs;
    private final String sampleCol;
    private final String groupsCol;
    private final String[] samples;
    private final String[] groups;
    private final String[] names;
    private final int[] rowOfCell;
    private final int[] cells;
    private final int[] firstCell;
    private final List<String> constant;

    private PseudobulkRows(
            Frame obs,
            String sampleCol,
            String groupsCol,
            String[] samples,
            String[] groups,
            int[] rowOfCell,
            int[] cells,
            int[] firstCell,
            List<String> constant) {
        this.obs = obs;
        this.sampleCol = sampleCol;
        this.groupsCol = groupsCol;
        this.samples = samples;
        this.groups = groups;
        this.names = new String[groups.length * samples.length];
        for (int g = 0; g < groups.length; g++) {
            for (int s = 0; s < samples.length; s++) {
                names[g * samples.length + s] = samples[s] + "_" + groups[g];
            }
        }
        this.rowOfCell = rowOfCell;
        this.cells = cells;
        this.firstCell = firstCell;
        this.constant = constant;
    }

    static PseudobulkRows of(Frame obs, String sampleCol, String groupsCol) {
        Labels sample = labels(obs, sampleCol);
        Labels group = labels(obs, groupsCol);
        List<String> samples = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        int[] sampleRank = sample.rankOfCode(samples);
        int[] groupRank = group.rankOfCode(groups);
        int nSamples = samples.size();
        int rows = Math.multiplyExact(groups.size(), nSamples);
        int[] rowOfCell = new int[obs.size()];
        int[] cells = new int[rows];
        int[] firstCell = new int[rows];
        int[] firstOfSample = new int[nSamples];
        Arrays.fill(firstCell, -1);
        Arrays.fill(firstOfSample, -1);
        for (int i = 0; i < rowOfCell.length; i++) {
            int sc = sample.codes.applyAsInt(i);
            int gc = group.codes.applyAsInt(i);
            int s = sc < 0 ? -1 : sampleRank[sc];
            int g = gc < 0 ? -1 : groupRank[gc];
            if (s >= 0 && firstOfSample[s] < 0) {
                firstOfSample[s] = i;
            }
            int row = s < 0 || g < 0 ? -1 : g * nSamples + s;
            rowOfCell[i] = row;
            if (row >= 0 && cells[row]++ == 0) {
                firstCell[row] = i;
            }
        }
        for (int row = 0; row < rows; row++) {
            if (firstCell[row] < 0) {
                firstCell[row] = firstOfSample[row % nSamples];
            }
        }
        List<String> constant = new ArrayList<>();
        for (Map.Entry<String, Column> c : obs.columns().entrySet()) {
            String name = c.getKey();
            if (!name.equals(sampleCol)
                    && !name.equals(groupsCol)
                    && constantInRows(c.getValue(), rowOfCell, firstCell)) {
                constant.add(name);
            }
        }
        return new PseudobulkRows(
                obs,
                sampleCol,
                groupsCol,
                samples.toArray(String[]::new),
                groups.toArray(String[]::new),
                rowOfCell,
                cells,
                firstCell,
                constant);
    }

    /** Number of rows (every group-sample pair). */
    int size() {
        return names.length;
    }

    /** The row of each cell, -1 for cells left out. */
    int[] rowOfCell() {
        return rowOfCell;
    }

    /** Cells in row {@code row}. */
    int cells(int row) {
        return cells[row];
    }

    /**
     * The obs of rows {@code rows}: sample, group and the constant columns, each taking the value of the row's first
     * cell (for a pair without cells, the sample's first cell, with the group set), every one a categorical of the
     * values present, sorted, as decoupler leaves them.
     */
    Frame obs(int[] rows) {
        String[] index = new String[rows.length];
        String[] sample = new String[rows.length];
        String[] group = new String[rows.length];
        int[] source = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            int row = rows[i];
            index[i] = names[row];
            sample[i] = samples[row % samples.length];
            group[i] = groups[row / samples.length];
            source[i] = firstCell[row];
        }
        Frame out = new Frame(index);
        out.put(sampleCol, categorical(ArrayColumn.of(sample)));
        out.put(groupsCol, categorical(ArrayColumn.of(group)));
        for (String name : constant) {
            out.put(name, categorical(obs.column(name).take(source)));
        }
        return out;
    }

    /** Whether every cell of a pair holds the value of the pair's first cell (missing counts as a value). */
    private static boolean constantInRows(Column column, int[] rowOfCell, int[] firstCell) {
        // a computed column is worked out once here rather than on every read of a row
        Column c = column instanceof ArrayColumn a ? new ArrayColumn(a.values()) : column;
        CategoricalColumn cat = c instanceof CategoricalColumn k ? k : null;
        for (int i = 0; i < rowOfCell.length; i++) {
            int row = rowOfCell[i];
            if (row < 0) {
                continue;
            }
            int first = firstCell[row];
            boolean same = cat != null ? cat.code(i) == cat.code(first) : Objects.equals(value(c, i), value(c, first));
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /**
     * A sample or groups column as codes into its values (-1 where missing): a categorical's own codes and categories,
     * so that a million cells cost no string each, or codes made for a column of strings.
     */
    private static Labels labels(Frame obs, String name) {
        if (!obs.has(name)) {
            throw new MissingColumnException("pseudobulk: no obs column '" + name + "' (obs columns: "
                    + obs.columns().keySet() + ")");
        }
        Column c = obs.column(name);
        if (c instanceof CategoricalColumn cat && cat.categories().dtype() == DType.STRING) {
            return new Labels(cat.size(), cat::code, cat.categories().strings());
        }
        String[] strings = StringValues.of(c);
        if (strings == null) {
            throw new IllegalArgumentException("pseudobulk: obs column '" + name + "' must hold strings (names of "
                    + "samples or groups), found " + c.typeName());
        }
        Map<String, Integer> code = new HashMap<>();
        int[] codes = new int[strings.length];
        for (int i = 0; i < strings.length; i++) {
            codes[i] = strings[i] == null ? -1 : code.computeIfAbsent(strings[i], v -> code.size());
        }
        String[] values = new String[code.size()];
        code.forEach((v, k) -> values[k] = v);
        return new Labels(codes.length, i -> codes[i], values);
    }

    /** Each of {@code size} cells' code into {@code values}, -1 where the cell has none. */
    private record Labels(int size, IntUnaryOperator codes, String[] values) {

        /**
         * Each code's rank among the values some cell has, sorted as Python sorts strings into {@code sorted}; -1
         * for a value no cell has (an unused category).
         */
        int[] rankOfCode(List<String> sorted) {
            boolean[] used = new boolean[values.length];
            for (int i = 0; i < size; i++) {
                int c = codes.applyAsInt(i);
                if (c >= 0) {
                    used[c] = true;
                }
            }
            Map<String, Integer> codeOf = new HashMap<>();
            for (int k = 0; k < values.length; k++) {
                if (used[k]) {
                    sorted.add(values[k]);
                    codeOf.put(values[k], k);
                }
            }
            sorted.sort(StringValues.PYTHON_ORDER);
            int[] rank = new int[values.length];
            Arrays.fill(rank, -1);
            for (int r = 0; r < sorted.size(); r++) {
                rank[Objects.requireNonNull(codeOf.get(sorted.get(r)), "coded above")] = r;
            }
            return rank;
        }
    }

    /**
     * The value of row {@code i} as Python would hold it in an object column: a string, a boolean, an integer
     * ({@code Long}) or a float ({@code Double}); null where missing (NaN included).
     */
    private static @Nullable Object value(Column c, int i) {
        if (c instanceof CategoricalColumn cat) {
            int code = cat.code(i);
            return code < 0 ? null : element(cat.categories(), code);
        }
        if (c instanceof NullableColumn n) {
            return n.mask()[i] ? null : element(n.values(), i);
        }
        return element(((ArrayColumn) c).values(), i);
    }

    private static @Nullable Object element(DenseArray a, int i) {
        DType t = a.dtype();
        if (t == DType.STRING || t == DType.BOOL) {
            return a.get(i);
        }
        if (t.isFloat() || t == DType.UINT64) {
            double d = a.getDouble(i);
            return Double.isNaN(d) ? null : d;
        }
        return ((Number) a.get(i)).longValue();
    }

    /** A categorical of the values of {@code c}: categories the distinct values present, sorted; codes int8 up. */
    private static CategoricalColumn categorical(Column c) {
        int n = c.size();
        Object[] values = new Object[n];
        TreeSet<Object> distinct = new TreeSet<>(PseudobulkRows::compareValues);
        for (int i = 0; i < n; i++) {
            values[i] = value(c, i);
            if (values[i] != null) {
                distinct.add(values[i]);
            }
        }
        Object[] cats = distinct.toArray();
        Map<Object, Integer> code = new HashMap<>();
        for (int k = 0; k < cats.length; k++) {
            code.put(cats[k], k);
        }
        int[] codes = new int[n];
        for (int i = 0; i < n; i++) {
            codes[i] = values[i] == null ? -1 : Objects.requireNonNull(code.get(values[i]), "coded above");
        }
        return new CategoricalColumn(
                categoryArray(cats), codes, false, CategoricalColumn.smallestCodeType(cats.length));
    }

    private static DenseArray categoryArray(Object[] cats) {
        if (cats.length == 0 || cats[0] instanceof String) {
            return DenseArray.of(Arrays.copyOf(cats, cats.length, String[].class));
        }
        if (cats[0] instanceof Boolean) {
            boolean[] b = new boolean[cats.length];
            for (int k = 0; k < b.length; k++) {
                b[k] = (Boolean) cats[k];
            }
            return DenseArray.of(b);
        }
        if (cats[0] instanceof Long) {
            long[] l = new long[cats.length];
            for (int k = 0; k < l.length; k++) {
                l[k] = (Long) cats[k];
            }
            return DenseArray.of(l);
        }
        double[] d = new double[cats.length];
        for (int k = 0; k < d.length; k++) {
            d[k] = (Double) cats[k];
        }
        return DenseArray.of(d);
    }

    @SuppressWarnings("unchecked")
    private static int compareValues(Object a, Object b) {
        if (a instanceof String x && b instanceof String y) {
            return StringValues.PYTHON_ORDER.compare(x, y);
        }
        return ((Comparable<Object>) a).compareTo(b);
    }
}
