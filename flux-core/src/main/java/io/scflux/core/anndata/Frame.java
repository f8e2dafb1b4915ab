/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An obs or var dataframe: a string index (cell barcodes, gene names) and named columns in order. Columns may be
 * added or replaced (as {@code adata.obs["x"] = ...}); every column has one value per index entry.
 *
 * <p>The index may be read when first asked for ({@link #Frame(int, Supplier, String)}): a file's million cell names
 * are then never decoded by a step that does not use them (pseudobulk names its rows from the groups).
 */
public final class Frame {

    /** The index, read at most once and shared by the frames made from this one ({@link #copy}, ...). */
    private final Once index;

    private final @Nullable String indexName;
    private final LinkedHashMap<String, Column> columns = new LinkedHashMap<>();
    private @Nullable Map<String, Integer> positions;

    /** A frame with the given index and no columns. {@code indexName} is what pandas calls it. */
    public Frame(String[] index, @Nullable String indexName) {
        this(packed(index), indexName);
    }

    /** A frame over a packed index (shared, it is immutable) and no columns. */
    public Frame(PackedStrings index, @Nullable String indexName) {
        this(Objects.requireNonNull(index, "index").size(), () -> index, indexName);
    }

    /**
     * A frame of {@code size} rows and no columns whose index {@code index} reads when first asked for, once (it must
     * yield {@code size} names; a failure is thrown to the caller that asked, and to the next one).
     */
    public Frame(int size, Supplier<PackedStrings> index, @Nullable String indexName) {
        if (size < 0) {
            throw new IllegalArgumentException("negative frame size " + size);
        }
        this.index = new Once(size, Objects.requireNonNull(index, "index"));
        this.indexName = indexName;
    }

    private Frame(Frame shared) {
        this.index = shared.index;
        this.indexName = shared.indexName;
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
        return index.size;
    }

    /** The index as strings (a new array each call: a large one is better read through {@link #names()}). */
    public String[] index() {
        return names().toArray();
    }

    /** The index as it is held: packed UTF-8 (read now if it was not yet). */
    public PackedStrings names() {
        return index.get();
    }

    /** The index's name, or null when unnamed (anndata then stores it under {@code _index}). */
    public @Nullable String indexName() {
        return indexName;
    }

    /** Position of {@code name} in the index (the first one if names repeat), or -1. */
    public int positionOf(String name) {
        Map<String, Integer> p = positions;
        if (p == null) {
            PackedStrings names = names();
            p = new HashMap<>(names.size() * 2);
            for (int i = names.size() - 1; i >= 0; i--) {
                p.put(names.get(i), i);
            }
            positions = p;
        }
        return p.getOrDefault(name, -1);
    }

    /** Adds or replaces a column, keeping the position of a replaced one. */
    public Frame put(String name, Column column) {
        Objects.requireNonNull(name, "name");
        if (column.size() != size()) {
            throw new IllegalArgumentException(
                    "column " + name + " has " + column.size() + " values, frame has " + size() + " rows");
        }
        columns.put(name, column);
        return this;
    }

    public Column column(String name) {
        Column c = columns.get(name);
        if (c == null) {
            throw new MissingColumnException("no column " + name + " (columns: " + columns.keySet() + ")");
        }
        return c;
    }

    public boolean has(String name) {
        return columns.containsKey(name);
    }

    public @Nullable Column remove(String name) {
        return columns.remove(name);
    }

    /** Columns in order (read-only). */
    public Map<String, Column> columns() {
        return Collections.unmodifiableMap(columns);
    }

    /** The rows {@code rows} in that order, every column taken (metadata is small, so this copies). */
    public Frame take(int[] rows) {
        Frame f = new Frame(names().take(rows), indexName);
        columns.forEach((k, v) -> f.put(k, v.take(rows)));
        return f;
    }

    /** A frame with the same index and the same columns, to which columns can be added without touching this one. */
    public Frame copy() {
        Frame f = new Frame(this);
        f.columns.putAll(columns);
        return f;
    }

    /** A frame with the same index and no columns. */
    public Frame indexOnly() {
        return new Frame(this);
    }

    @Override
    public String toString() {
        return "Frame[" + size() + " rows, columns " + columns.keySet() + "]";
    }

    /** An index read on first use, once, and checked to hold one name per row. */
    private static final class Once implements Supplier<PackedStrings> {
        private final int size;
        private @Nullable Supplier<PackedStrings> read;
        private volatile @Nullable PackedStrings names;

        Once(int size, Supplier<PackedStrings> read) {
            this.size = size;
            this.read = read;
        }

        @Override
        public PackedStrings get() {
            PackedStrings n = names;
            if (n == null) {
                synchronized (this) {
                    n = names;
                    if (n == null) {
                        n = Objects.requireNonNull(read, "read").get(); // dropped once read
                        if (n.size() != size) {
                            throw new IllegalStateException(
                                    "an index of " + size + " rows read " + n.size() + " names");
                        }
                        names = n;
                        read = null;
                    }
                }
            }
            return n;
        }
    }
}
