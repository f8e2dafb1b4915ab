package io.scflux.core.anndata;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An obs or var dataframe: a string index (cell barcodes, gene names) and named columns in order. Columns may be
 * added or replaced (as {@code adata.obs["x"] = ...}); every column has one value per index entry.
 */
public final class Frame {

    private final PackedStrings index;
    private final String indexName;
    private final LinkedHashMap<String, Column> columns = new LinkedHashMap<>();
    private Map<String, Integer> positions;

    /** A frame with the given index and no columns. {@code indexName} is what pandas calls it. */
    public Frame(String[] index, String indexName) {
        this(packed(index), indexName);
    }

    /** A frame over a packed index (shared, it is immutable) and no columns. */
    public Frame(PackedStrings index, String indexName) {
        this.index = Objects.requireNonNull(index, "index");
        this.indexName = indexName;
    }

    private static PackedStrings packed(String[] index) {
        Objects.requireNonNull(index, "index");
        for (int i = 0; i < index.length; i++) {
            if (index[i] == null) {
                throw new IllegalArgumentException("index entry " + i + " is missing");
            }
        }
        return PackedStrings.of(index);
    }

    public Frame(String[] index) {
        this(index, null);
    }

    /** A frame indexed "0", "1", ... as anndata makes one for data without names. */
    public static Frame ofRange(int n) {
        String[] idx = new String[n];
        for (int i = 0; i < n; i++) {
            idx[i] = Integer.toString(i);
        }
        return new Frame(idx);
    }

    public int size() {
        return index.size();
    }

    /** The index as strings (a new array each call: a large one is better read through {@link #names()}). */
    public String[] index() {
        return index.toArray();
    }

    /** The index as it is held: packed UTF-8. */
    public PackedStrings names() {
        return index;
    }

    /** The index's name, or null when unnamed (anndata then stores it under {@code _index}). */
    public String indexName() {
        return indexName;
    }

    /** Position of {@code name} in the index (the first one if names repeat), or -1. */
    public int positionOf(String name) {
        Map<String, Integer> p = positions;
        if (p == null) {
            p = new HashMap<>(index.size() * 2);
            for (int i = index.size() - 1; i >= 0; i--) {
                p.put(index.get(i), i);
            }
            positions = p;
        }
        return p.getOrDefault(name, -1);
    }

    /** Adds or replaces a column, keeping the position of a replaced one. */
    public Frame put(String name, Column column) {
        Objects.requireNonNull(name, "name");
        if (column.size() != index.size()) {
            throw new IllegalArgumentException("column " + name + " has " + column.size() + " values, frame has "
                    + index.size() + " rows");
        }
        columns.put(name, column);
        return this;
    }

    public Column column(String name) {
        Column c = columns.get(name);
        if (c == null) {
            throw new IllegalArgumentException("no column " + name + " (columns: " + columns.keySet() + ")");
        }
        return c;
    }

    public boolean has(String name) {
        return columns.containsKey(name);
    }

    public Column remove(String name) {
        return columns.remove(name);
    }

    /** Columns in order (read-only). */
    public Map<String, Column> columns() {
        return Collections.unmodifiableMap(columns);
    }

    /** The rows {@code rows} in that order, every column taken (metadata is small, so this copies). */
    public Frame take(int[] rows) {
        Frame f = new Frame(index.take(rows), indexName);
        columns.forEach((k, v) -> f.put(k, v.take(rows)));
        return f;
    }

    /** A frame with the same index and the same columns, to which columns can be added without touching this one. */
    public Frame copy() {
        Frame f = new Frame(index, indexName);
        f.columns.putAll(columns);
        return f;
    }

    /** A frame with the same index and no columns. */
    public Frame indexOnly() {
        return new Frame(index, indexName);
    }

    @Override
    public String toString() {
        return "Frame[" + index.size() + " rows, columns " + columns.keySet() + "]";
    }
}
