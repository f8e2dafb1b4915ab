/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.MissingColumnException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The cells of each batch: {@code group[cell]} is the cell's batch in {@code [0, count)}, or {@code count} for a cell
 * whose batch value is missing (it belongs to no batch). Without a batch key every cell is in batch 0.
 */
final class Batches {

    final int count;
    final int[] group;

    private Batches(int count, int[] group) {
        this.count = count;
        this.group = group;
    }

    static Batches none(int nCells) {
        return new Batches(1, new int[nCells]);
    }

    /**
     * The batches of obs column {@code key}. {@code byCategories}: a categorical's batches are all its categories in
     * their order (scanpy's dispersion flavors iterate {@code .cat.categories}); otherwise, and for plain columns, they
     * are the distinct values present, sorted (seurat_v3's {@code np.unique}, and what scanpy's conversion of a
     * string column to a categorical gives).
     */
    static Batches of(Frame obs, String key, boolean byCategories) {
        if (!obs.has(key)) {
            throw new MissingColumnException("batch key " + key + " is not an obs column (columns: "
                    + obs.columns().keySet() + ")");
        }
        Column column = obs.column(key);
        List<Object> names = new ArrayList<>();
        if (byCategories && column instanceof CategoricalColumn c) {
            for (int i = 0; i < c.categories().size(); i++) {
                names.add(c.categories().get(i));
            }
        } else {
            TreeSet<Object> present = new TreeSet<>();
            for (int i = 0; i < column.size(); i++) {
                Object v = column.get(i);
                if (v != null) {
                    present.add(v);
                }
            }
            names.addAll(present);
        }
        Map<Object, Integer> index = new HashMap<>();
        for (int b = 0; b < names.size(); b++) {
            index.put(names.get(b), b);
        }
        int[] group = new int[column.size()];
        for (int i = 0; i < group.length; i++) {
            Object v = column.get(i);
            group[i] = v == null ? names.size() : Objects.requireNonNull(index.get(v), "indexed above");
        }
        return new Batches(names.size(), group);
    }

    /** Batches plus the slot of cells without one. */
    int groups() {
        return count + 1;
    }
}
