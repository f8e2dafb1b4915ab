/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A numpy structured array of one dimension, as anndata stores it ({@code rec-array}, an HDF5 compound dataset): named
 * fields of the same length, each a 1-D {@link DenseArray}. scanpy's {@code rank_genes_groups} keeps its results so,
 * one field per group, and {@code sc.get.rank_genes_groups_df} reads them back by field name.
 */
public final class RecordArray {

    private final Map<String, DenseArray> fields;
    private final int size;

    private RecordArray(Map<String, DenseArray> fields, int size) {
        this.fields = fields;
        this.size = size;
    }

    /** The fields in order (copied); each must be 1-D and all of one length. */
    public static RecordArray of(Map<String, DenseArray> fields) {
        Map<String, DenseArray> copy = new LinkedHashMap<>();
        int size = -1;
        for (Map.Entry<String, DenseArray> f : fields.entrySet()) {
            DenseArray a = Objects.requireNonNull(f.getValue(), f.getKey());
            if (a.ndim() != 1) {
                throw new IllegalArgumentException(
                        "field '" + f.getKey() + "' of a structured array must be 1-D, " + "found " + a.ndim() + "-D");
            }
            if (size >= 0 && a.size() != size) {
                throw new IllegalArgumentException("field '" + f.getKey() + "' holds " + a.size() + " elements, "
                        + "the fields before it " + size);
            }
            size = a.size();
            copy.put(Objects.requireNonNull(f.getKey(), "field name"), a);
        }
        return new RecordArray(Collections.unmodifiableMap(copy), Math.max(size, 0));
    }

    /** The fields by name, in order (read-only). */
    public Map<String, DenseArray> fields() {
        return fields;
    }

    /** The field {@code name}; an error naming the fields there are when there is none. */
    public DenseArray field(String name) {
        DenseArray a = fields.get(name);
        if (a == null) {
            throw new IllegalArgumentException("no field '" + name + "' (fields: " + fields.keySet() + ")");
        }
        return a;
    }

    /** The number of records (the length of every field). */
    public int size() {
        return size;
    }

    @Override
    public boolean equals(Object o) {
        // the same fields in the same order: numpy's dtypes differ when only the order does
        return o instanceof RecordArray r
                && size == r.size
                && List.copyOf(fields.entrySet()).equals(List.copyOf(r.fields.entrySet()));
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return "RecordArray[" + size + " x " + fields.keySet() + "]";
    }
}
