/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import io.scflux.core.Settings;
import java.nio.file.Paths;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * The edge of a test run, as the command line is of a user's: the library reads no environment, so this sets its
 * cache folder from {@code SCFLUX_CACHE_DIR}, which the build sets, before any test runs: the CSC copies and spills
 * the tests make stay in {@code target/}, not in the user's temporary folder. Registered through
 * {@code META-INF/services}, in every module that tests with this module's test jar.
 */
public final class TestSettings implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String dir = System.getenv("SCFLUX_CACHE_DIR");
        if (dir != null && !dir.isEmpty()) {
            Settings.use(Settings.current().withCacheDir(Paths.get(dir)));
        }
    }
}
