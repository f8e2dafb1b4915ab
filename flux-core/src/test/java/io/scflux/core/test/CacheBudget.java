/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.cache.BlockCache;

/** The cache-budget axis of the scenario matrix: none, a quarter of the data, all of it. */
public enum CacheBudget {
    NONE(0),
    QUARTER(0.25),
    ALL(4);

    private final double fraction;

    CacheBudget(double fraction) {
        this.fraction = fraction;
    }

    /** A fresh cache of this fraction of {@code dataBytes}. */
    public BlockCache cacheFor(long dataBytes) {
        return BlockCache.ofBytes((long) (fraction * dataBytes));
    }
}
