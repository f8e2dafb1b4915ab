/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last {@code capacity} values used, by key, in strict order of use: what a reader keeps decoded for the reads
 * that follow. Not Caffeine, which the project uses for the block cache: its eviction is by frequency as well as
 * recency and runs after the write, while VlenStrings takes the least recently used collection's arrays at once, for
 * the one it reads next (a million barcodes' 40 MB of heap collections pass through a few arrays instead of one each,
 * measured in the collector's log), and each reader's few entries do not need a concurrent cache.
 */
final class Recent<K, V> extends LinkedHashMap<K, V> {

    private static final long serialVersionUID = 1L;

    private final int capacity;

    Recent(int capacity) {
        super(2 * capacity, 0.75f, true);
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
