/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.scflux.core.pack.PackedBlock;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The kept blocks of a {@link BlockCache} and their counts: what a cached source looks its blocks up in and stores
 * them into. Apart from the cache, which makes cached sources over it, so that neither names the other's maker.
 */
final class BlockStore {

    private final long budget;
    private final @Nullable Cache<Key, PackedBlock> cache;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder rejections = new LongAdder();

    BlockStore(long budget) {
        if (budget < 0) {
            throw new IllegalArgumentException("cache budget must be at least 0, got " + budget);
        }
        this.budget = budget;
        this.cache = budget == 0
                ? null
                : Caffeine.newBuilder()
                        .maximumWeight(budget)
                        .weigher((Key k, PackedBlock b) -> (int) Math.min(Integer.MAX_VALUE, b.sizeInBytes()))
                        .executor(Runnable::run)
                        .recordStats()
                        .build();
    }

    long budgetBytes() {
        return budget;
    }

    /** Hits, misses, evictions, blocks not admitted and bytes held so far. */
    CacheStats stats() {
        long evictions = cache == null ? 0 : cache.stats().evictionCount();
        return new CacheStats(
                hits.sum(), misses.sum(), evictions, rejections.sum(), cache == null ? 0 : held(), budget);
    }

    /** Drops every block (tests, and a caller that knows its sources changed). */
    void clear() {
        if (cache != null) {
            cache.invalidateAll();
            cache.cleanUp();
        }
    }

    /** The cached block for {@code key}, or null; counts the hit. */
    @Nullable
    PackedBlock lookup(Key key) {
        PackedBlock b = cache == null ? null : cache.getIfPresent(key);
        if (b != null) {
            hits.increment();
        }
        return b;
    }

    /**
     * Records a block of {@code nnz} entries read from its source and keeps it, packed by {@code packing} (called
     * only then), if it fits in what is left of the budget. A full cache admits nothing more rather than evicting:
     * passes scan the blocks in the same order, and under LRU-like eviction a scan larger than the budget would evict
     * every block before its next use; keeping the first blocks serves them on every later pass.
     */
    void store(Key key, long nnz, Supplier<PackedBlock> packing) {
        misses.increment();
        if (cache == null) {
            return;
        }
        if (held() + nnz > budget) {
            rejections.increment();
            return;
        }
        PackedBlock packed = packing.get();
        if (held() + packed.sizeInBytes() > budget) {
            rejections.increment();
            return;
        }
        cache.put(key, packed);
    }

    private long held() {
        Cache<Key, PackedBlock> c = cache;
        return c == null
                ? 0
                : c.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    /** A block's identity: its source's data and its rows. */
    record Key(Object source, long from, long to) {}
}
