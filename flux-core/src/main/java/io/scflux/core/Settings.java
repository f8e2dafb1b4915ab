/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Objects;

/**
 * What the host sets for a scflux run: the cache folder, the room the CSC inputs' row-major copies may take there,
 * the host memory budget, and whether a file another process holds open for writing is refused. Library code reads
 * these, never an environment variable or a system property: the edges (the command line and the service it serves,
 * which Python's package launches) read those once and pass what they make in the run context
 * ({@link Streaming#settings}) and to the file API's opens and writes; a library user who passes none gets
 * {@link #DEFAULT}. The memory budget is the one setting of the process rather than of a run, since every run in a JVM
 * shares its heap: an edge gives it to the host account once ({@link MemoryAccount#useHostBudget}).
 *
 * @param cacheDir where scflux keeps what it writes besides its outputs (neither created nor checked here)
 * @param cacheMaxBytes the most bytes the row-major copies of CSC inputs may take together there
 * @param memoryBudgetBytes the cap of {@link MemoryAccount#host}, or 0 for half the JVM's maximum heap
 * @param fileLocking whether a file another process holds open for writing is refused, as HDF5 refuses it
 */
public record Settings(Path cacheDir, long cacheMaxBytes, long memoryBudgetBytes, boolean fileLocking) {

    /** The default of {@link #cacheMaxBytes}: 64 GiB. */
    public static final long DEFAULT_CACHE_MAX_BYTES = 64L << 30;

    /**
     * The cache folder {@code scflux-cache-<uid>} in the JVM's {@code java.io.tmpdir} (a fact of this JVM, not a
     * setting: the command line passes {@code $TMPDIR}'s instead), 64 GiB for the copies, half the heap, locks
     * honoured.
     */
    public static final Settings DEFAULT = new Settings(
            defaultCacheDir(Paths.get(System.getProperty("java.io.tmpdir"))), DEFAULT_CACHE_MAX_BYTES, 0, true);

    public Settings {
        Objects.requireNonNull(cacheDir, "cacheDir");
        if (cacheMaxBytes < 0 || memoryBudgetBytes < 0) {
            throw new IllegalArgumentException(
                    "negative cache room " + cacheMaxBytes + " or memory budget " + memoryBudgetBytes);
        }
    }

    /**
     * The cache folder scflux uses when none is set: {@code scflux-cache-<uid>} (or {@code -<user name>} where the
     * uid is out of reach) in {@code tmp}, one folder per user.
     *
     * @param tmp the folder of temporary files ({@code $TMPDIR}, else {@code java.io.tmpdir})
     * @return the cache folder's path
     */
    public static Path defaultCacheDir(Path tmp) {
        return tmp.resolve("scflux-cache-" + CacheFolder.user());
    }

    /**
     * These settings with the cache folder {@code dir}.
     *
     * @param dir the cache folder
     * @return the new settings
     */
    public Settings withCacheDir(Path dir) {
        return new Settings(dir, cacheMaxBytes, memoryBudgetBytes, fileLocking);
    }

    /**
     * These settings with room for {@code bytes} of row-major copies.
     *
     * @param bytes the most the copies may take
     * @return the new settings
     */
    public Settings withCacheMaxBytes(long bytes) {
        return new Settings(cacheDir, bytes, memoryBudgetBytes, fileLocking);
    }

    /**
     * These settings with the host memory budget {@code bytes} (0: half the heap).
     *
     * @param bytes the cap of the host account
     * @return the new settings
     */
    public Settings withMemoryBudgetBytes(long bytes) {
        return new Settings(cacheDir, cacheMaxBytes, bytes, fileLocking);
    }

    /**
     * These settings with file locks honoured or not.
     *
     * @param on whether a file open for writing elsewhere is refused
     * @return the new settings
     */
    public Settings withFileLocking(boolean on) {
        return new Settings(cacheDir, cacheMaxBytes, memoryBudgetBytes, on);
    }
}
