/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.Settings;
import java.nio.file.Path;

/**
 * The cache folder pointed at a test's own folder, and put back as it was when closed: for the library
 * ({@link Settings#cacheDir}) and for a command line run in this JVM ({@code -Dscflux.cache.dir}, which it reads).
 * Tests of the cache's copies, spills and checks share the JVM with tests that use the default folder.
 */
public final class CacheDir implements AutoCloseable {

    private static final String PROPERTY = "scflux.cache.dir";

    private final Settings settings;
    private final String property;

    private CacheDir(Settings settings, String property) {
        this.settings = settings;
        this.property = property;
    }

    /**
     * Points the cache folder at {@code dir} until {@link #close}.
     *
     * @param dir the folder (it need not exist)
     * @return what puts the setting back
     */
    public static CacheDir at(Path dir) {
        CacheDir before = new CacheDir(Settings.current(), System.getProperty(PROPERTY));
        Settings.use(Settings.current().withCacheDir(dir));
        System.setProperty(PROPERTY, dir.toString());
        return before;
    }

    /** Puts the settings back as they were before {@link #at}. */
    @Override
    public void close() {
        Settings.use(settings);
        if (property == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, property);
        }
    }
}
