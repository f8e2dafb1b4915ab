/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.Settings;
import java.nio.file.Path;

/**
 * A test's own cache folder: the {@link Settings} that name it, for the library calls a test passes them to, and the
 * same folder for a command line run in this JVM ({@code -Dscflux.cache.dir}, which it reads), put back as it was
 * when closed. Tests of the cache's copies, spills and checks share the JVM with tests that use the default folder.
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
     * @return the settings naming it, and what puts the property back
     */
    public static CacheDir at(Path dir) {
        CacheDir before = new CacheDir(Settings.DEFAULT.withCacheDir(dir), System.getProperty(PROPERTY));
        System.setProperty(PROPERTY, dir.toString());
        return before;
    }

    /**
     * The settings of the library with this cache folder.
     *
     * @return {@link Settings#DEFAULT} but for the folder
     */
    public Settings settings() {
        return settings;
    }

    /** Puts the property back as it was before {@link #at}. */
    @Override
    public void close() {
        if (property == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, property);
        }
    }
}
