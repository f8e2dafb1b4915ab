/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import java.nio.file.Path;

/**
 * The cache folder ({@code -Dscflux.cache.dir}) pointed at a test's own folder, and put back as it was when closed:
 * tests of the cache's copies, spills and checks share the JVM with tests that use the default folder.
 */
public final class CacheDir implements AutoCloseable {

    private static final String PROPERTY = "scflux.cache.dir";

    private final String before;

    private CacheDir(String before) {
        this.before = before;
    }

    /**
     * Points the cache folder at {@code dir} until {@link #close}.
     *
     * @param dir the folder (it need not exist)
     * @return what puts the setting back
     */
    public static CacheDir at(Path dir) {
        String before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, dir.toString());
        return new CacheDir(before);
    }

    /** Puts the setting back as it was before {@link #at}. */
    @Override
    public void close() {
        if (before == null) {
            System.clearProperty(PROPERTY);
        } else {
            System.setProperty(PROPERTY, before);
        }
    }
}
