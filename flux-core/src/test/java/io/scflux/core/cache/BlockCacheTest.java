/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.CacheBudget;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Emission;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.Threads;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A cached source yields the same blocks with any budget, block size, thread count and emission (a hit unpacks into
 * a buffer, a miss decodes into it); with a budget that holds the data, passes after the first never read the source.
 */
class BlockCacheTest {

    private static final CsrMatrix DATA = Matrices.random(500, 200, 0.08, 17);
    private static final long DATA_BYTES = 8 * DATA.nnz() + 4 * DATA.nRows();

    static List<Arguments> matrix() {
        List<Arguments> all = new ArrayList<>();
        for (CacheBudget c : CacheBudget.values()) {
            for (BlockSize b : BlockSize.values()) {
                for (Threads t : Threads.values()) {
                    for (Emission e : Emission.values()) {
                        all.add(Arguments.of(c, b, t, e));
                    }
                }
            }
        }
        return all;
    }

    @ParameterizedTest(name = "{0} x {1} x {2} x {3}")
    @MethodSource("matrix")
    void sameBlocksAndOneReadPerBlockWhenItFits(
            CacheBudget budget, BlockSize size, Threads threads, Emission emission) {
        CountingSource file = CountingSource.keyed(DATA, "data-v1");
        BlockCache cache = budget.cacheFor(DATA_BYTES);
        BlockSource x = cache.cached(file);
        BlockPlan plan = x.plan(size.target());
        for (int pass = 0; pass < 3; pass++) {
            CsrMatrix seen = CsrMatrix.collect(emission.blocks(x, plan, threads.execution()), DATA.nCols())
                    .block();
            Matrices.assertSame(DATA, seen);
        }
        CacheStats s = cache.stats();
        assertEquals(3L * plan.size(), s.hits() + s.misses());
        assertEquals(s.misses(), file.reads.get(), "every miss read the source once");
        if (budget == CacheBudget.ALL) {
            assertEquals(plan.size(), file.reads.get(), "each block read once");
            assertEquals(2L * plan.size(), s.hits());
            assertEquals(0, s.evictions());
        } else if (budget == CacheBudget.NONE) {
            assertEquals(3L * plan.size(), file.reads.get());
            assertEquals(0, s.bytes());
        }
        assertTrue(s.bytes() <= s.budgetBytes());
        assertEquals(file.opened.get(), file.closed.get());
    }

    @Test
    void aPassServedFromTheCacheNeverOpensTheSource() {
        CountingSource file = CountingSource.keyed(DATA, "data-v1");
        BlockSource x = BlockCache.ofMegabytes(16).cached(file);
        x.blocks().blockLast();
        int opened = file.opened.get();
        x.blocks(x.plan(), Execution.threads(2)).blockLast();
        assertEquals(opened, file.opened.get());
    }

    @Test
    void sourcesWithoutAKeyAreNotWrappedAndKeysSeparateData() {
        BlockCache cache = BlockCache.ofMegabytes(16);
        assertSame(DATA, cache.cached(DATA));
        CsrMatrix other = Matrices.random(500, 200, 0.08, 18);
        BlockSource a = cache.cached(CountingSource.keyed(DATA, "a"));
        BlockSource b = cache.cached(CountingSource.keyed(other, "b"));
        a.blocks().blockLast();
        Matrices.assertSame(other, CsrMatrix.collect(b.blocks(), 200).block());
        assertSame(a, cache.cached(a));
    }

    @Test
    void aFullCacheKeepsTheFirstBlocksForEveryLaterPass() {
        BlockCache cache = BlockCache.ofBytes(DATA_BYTES / 20);
        CountingSource file = CountingSource.keyed(DATA, "k");
        BlockSource x = cache.cached(file);
        BlockPlan plan = x.plan(BlockSize.TINY.target());
        x.blocks(plan).blockLast();
        CacheStats first = cache.stats();
        assertTrue(first.rejections() > 0, "the budget holds part of the data");
        assertTrue(first.bytes() <= DATA_BYTES / 20);
        long kept = plan.size() - first.rejections();
        x.blocks(plan).blockLast();
        x.blocks(plan).blockLast();
        CacheStats third = cache.stats();
        assertEquals(2 * kept, third.hits(), "the kept blocks serve every later pass");
        assertEquals(plan.size() + 2 * (plan.size() - kept), file.reads.get(), "only the others are read again");
        assertEquals(0, third.evictions());
    }
}
