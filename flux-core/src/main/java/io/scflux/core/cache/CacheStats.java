/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.cache;

/**
 * What a {@link BlockCache} did: reads served from it ({@code hits}), reads that went to the source ({@code misses}),
 * blocks dropped to stay within the budget ({@code evictions}), blocks read but not kept because the budget was full
 * ({@code rejections}), and bytes held now.
 */
public record CacheStats(long hits, long misses, long evictions, long rejections, long bytes, long budgetBytes) {

    /** One JSON object, as {@code --stats} prints it. */
    public String toJson() {
        return "{\"hits\": " + hits + ", \"misses\": " + misses + ", \"evictions\": " + evictions
                + ", \"rejections\": " + rejections + ", \"bytes\": " + bytes + ", \"budget_bytes\": " + budgetBytes
                + "}";
    }
}
