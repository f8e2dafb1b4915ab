/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.ops.values.StringValues;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The groups of rank_genes_groups, as scanpy's {@code select_groups} makes them: the groups are the categories of the
 * groupby column of obs (a column of strings as scanpy turns it into one: its values sorted), each cell labelled with
 * its category ({@link #missing()} where it has none); the groups tested in order (all, or those asked for in the
 * order asked, the reference added last), each with at least two cells.
 */
final class GroupLabels {

    /** Every category's name, as scanpy's {@code str(name)}. */
    final String[] names;
    /** Each cell's category, or {@link #missing()}. */
    final int[] labelOfCell;
    /** Cells per label, the missing ones last. */
    final long[] cells;
    /** scanpy's {@code groups_order}: the categories tested, the reference among them. */
    final int[] order;
    /** The category compared with, or -1 for the rest. */
    final int reference;

    private GroupLabels(String[] names, int[] labelOfCell, int[] order, int reference) {
        this.names = names;
        this.labelOfCell = labelOfCell;
        this.cells = new long[names.length + 1];
        for (int label : labelOfCell) {
            cells[label]++;
        }
        this.order = order;
        this.reference = reference;
    }

    /** The groups of {@code options} in {@code obs}, refused as scanpy refuses them, with its messages. */
    static GroupLabels of(Frame obs, RankGenesGroupsOptions options) {
        String key = options.groupby();
        if (!obs.has(key)) {
            throw new MissingColumnException("rank_genes_groups: groupby '" + key + "' is not an obs column (obs "
                    + "columns: " + obs.columns().keySet() + ")");
        }
        Column c = obs.column(key);
        String[] names;
        int[] label = new int[c.size()];
        if (c instanceof CategoricalColumn cat) {
            names = new String[cat.categories().size()];
            for (int k = 0; k < names.length; k++) {
                names[k] = String.valueOf(cat.categories().get(k));
            }
            for (int i = 0; i < label.length; i++) {
                int code = cat.code(i);
                label[i] = code < 0 ? names.length : code;
            }
        } else {
            String[] values = strings(c, key);
            TreeSet<String> present = new TreeSet<>(StringValues.PYTHON_ORDER);
            for (String v : values) {
                if (v != null) {
                    present.add(v);
                }
            }
            names = present.toArray(String[]::new);
            Map<String, Integer> index = new HashMap<>();
            for (int k = 0; k < names.length; k++) {
                index.put(names[k], k);
            }
            for (int i = 0; i < label.length; i++) {
                label[i] = values[i] == null
                        ? names.length
                        : Objects.requireNonNull(index.get(values[i]), "indexed above");
            }
        }
        int[] order = order(names, key, options);
        if (order.length == 0) {
            // scanpy fails later, inside numpy; a table of results with no group has nothing to write either
            throw new IllegalArgumentException("rank_genes_groups: obs '" + key + "' holds no group"
                    + (label.length == 0 ? " (there are no cells)" : " (no category)")
                    + ": it needs at least one group of two cells or more to rank genes in");
        }
        int reference = options.againstRest() ? -1 : indexOf(names, options.reference());
        GroupLabels g = new GroupLabels(names, label, order, reference);
        List<String> singlets = new ArrayList<>();
        for (int k : order) {
            if (g.cells[k] < 2) {
                singlets.add(names[k]);
            }
        }
        if (!singlets.isEmpty()) {
            throw new IllegalArgumentException("Could not calculate statistics for groups "
                    + String.join(", ", singlets) + " since they only contain one sample.");
        }
        return g;
    }

    /** The label of cells without a category. */
    int missing() {
        return names.length;
    }

    /** Labels, the missing one included. */
    int labels() {
        return names.length + 1;
    }

    /** The groups tested, in order: {@link #order} without the reference. */
    int[] tested() {
        return Arrays.stream(order).filter(k -> k != reference).toArray();
    }

    /** scanpy's groups_order: every category, or those asked for in the order asked, the reference added last. */
    private static int[] order(String[] names, String key, RankGenesGroupsOptions options) {
        if (!options.againstRest() && indexOf(names, options.reference()) < 0) {
            throw new IllegalArgumentException("reference = " + options.reference() + " needs to be one of groupby = "
                    + Arrays.toString(names) + ".");
        }
        if (options.groups() == null) {
            int[] all = new int[names.length];
            Arrays.setAll(all, k -> k);
            return all;
        }
        LinkedHashSet<Integer> order = new LinkedHashSet<>();
        for (String name : options.groups()) {
            int k = indexOf(names, name);
            if (k < 0) {
                throw new IllegalArgumentException("rank_genes_groups: group '" + name + "' is not a category of obs "
                        + "column '" + key + "' (categories: " + String.join(", ", names) + ")");
            }
            if (!order.add(k)) {
                throw new IllegalArgumentException("rank_genes_groups: group '" + name + "' is asked for twice");
            }
        }
        if (!options.againstRest()) {
            order.add(indexOf(names, options.reference()));
        }
        return order.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int indexOf(String[] names, String name) {
        for (int k = 0; k < names.length; k++) {
            if (names[k].equals(name)) {
                return k;
            }
        }
        return -1;
    }

    /** A column of strings (null where missing), or the error saying what a groupby column must be. */
    private static String[] strings(Column c, String key) {
        String[] strings = StringValues.of(c);
        if (strings == null) {
            throw new IllegalArgumentException("rank_genes_groups: groupby column '" + key + "' must be categorical "
                    + "or hold strings, found " + c.typeName());
        }
        return strings;
    }
}
