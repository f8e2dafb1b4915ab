/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.cache;

import io.scflux.core.BlockSource;

/**
 * Decoded blocks kept between passes (the stats pass, HVG, the PCA Gram and projection passes read the same
 * counts), bounded by a byte budget: a Caffeine cache of {@link io.scflux.core.pack.PackedBlock}s weighed by their
 * bytes, keyed by the source's identity and the block's rows. Results never depend on it: a block is the same read or
 * cached.
 */
public final class BlockCache {

    private static final long MB = 1L << 20;

    private final BlockStore store;

    private BlockCache(long budget) {
        this.store = new BlockStore(budget);
    }

    /** A cache of at most {@code bytes} bytes; 0 caches nothing (every read goes to the source). */
    public static BlockCache ofBytes(long bytes) {
        return new BlockCache(bytes);
    }

    public static BlockCache ofMegabytes(long mb) {
        return new BlockCache(Math.multiplyExact(mb, MB));
    }

    /** {@code source} read through this cache, or {@code source} itself when it has no cache key. */
    public BlockSource cached(BlockSource source) {
        if (source instanceof CachedSource c && c.store() == store) {
            return source;
        }
        Object key = source.cacheKey();
        return key == null ? source : new CachedSource(source, key, store);
    }

    public long budgetBytes() {
        return store.budgetBytes();
    }

    /** Hits, misses, evictions, blocks not admitted and bytes held so far. */
    public CacheStats stats() {
        return store.stats();
    }

    /** Drops every block (tests, and a caller that knows its sources changed). */
    public void clear() {
        store.clear();
    }
}
