package io.scflux.io;

import java.util.LinkedHashMap;
import java.util.Map;

/** The last {@code capacity} values used, by key: what a reader keeps decoded for the reads that follow. */
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
