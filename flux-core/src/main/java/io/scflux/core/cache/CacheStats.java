package io.scflux.core.cache;

/**
 * What a {@link BlockCache} did: reads served from it ({@code hits}), reads that went to the source ({@code misses}),
 * blocks dropped to stay within the budget, and bytes held now.
 */
public record CacheStats(long hits, long misses, long evictions, long bytes, long budgetBytes) {

    /** One JSON object, as {@code --stats} prints it. */
    public String toJson() {
        return "{\"hits\": " + hits + ", \"misses\": " + misses + ", \"evictions\": " + evictions + ", \"bytes\": "
                + bytes + ", \"budget_bytes\": " + budgetBytes + "}";
    }
}
