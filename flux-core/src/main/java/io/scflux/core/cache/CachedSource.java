/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.cache;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockSource;
import io.scflux.core.ForwardingSource;
import io.scflux.core.Pass;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.pack.PackedBlock;
import org.jspecify.annotations.Nullable;

/**
 * A source whose blocks are looked up in a {@link BlockCache} (its {@link BlockStore}) before they are read: a hit
 * unpacks the kept block, a miss reads the source, hands the block on and keeps it packed.
 */
final class CachedSource extends ForwardingSource {

    private final Object key;
    private final BlockStore cache;

    CachedSource(BlockSource base, Object key, BlockStore cache) {
        super(base);
        this.key = key;
        this.cache = cache;
    }

    BlockStore store() {
        return cache;
    }

    @Override
    public Object cacheKey() {
        return key;
    }

    /** As {@link #open()}: the source under the cache is opened on a miss, by no pass. */
    @Override
    public RowReader open(Pass pass) {
        return open();
    }

    @Override
    public RowReader open() {
        return new RowReader() {
            private @Nullable RowReader reader;

            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                BlockStore.Key k = new BlockStore.Key(key, from, to);
                PackedBlock kept = cache.lookup(k);
                if (kept != null) {
                    return kept.unpack(blockIndex, from);
                }
                RowBlock block = base().read(blockIndex, from, to);
                cache.store(k, block.nnz(), () -> PackedBlock.pack(block));
                return block;
            }

            /** A hit unpacks into the buffer, a miss decodes into it (copied only when the cache will keep it). */
            @Override
            public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
                BlockStore.Key k = new BlockStore.Key(key, from, to);
                PackedBlock kept = cache.lookup(k);
                if (kept != null) {
                    kept.unpackInto(blockIndex, from, into);
                    return;
                }
                base().readInto(blockIndex, from, to, into);
                cache.store(k, into.nnz(), () -> PackedBlock.pack(into.copy()));
            }

            /** The source is opened on the first miss: a pass served from the cache never touches it. */
            private synchronized RowReader base() {
                if (reader == null) {
                    reader = delegate().open();
                }
                return reader;
            }

            @Override
            public synchronized void close() {
                if (reader != null) {
                    reader.close();
                }
            }
        };
    }

    @Override
    public String describe() {
        return "cached " + delegate().describe();
    }
}
