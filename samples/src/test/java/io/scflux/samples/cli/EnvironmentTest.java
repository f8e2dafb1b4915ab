/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Settings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The settings the command line reads from the environment, under the names users set. */
class EnvironmentTest {

    private static Properties properties(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("java.io.tmpdir", "/jvm-tmp");
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void nothingSetGivesTheDefaultsInTheJvmsTemporaryFolder() {
        Settings s = Environment.settings(Map.of(), properties());
        assertEquals(Settings.defaultCacheDir(Path.of("/jvm-tmp")), s.cacheDir());
        assertEquals(64L << 30, s.cacheMaxBytes());
        assertEquals(0, s.memoryBudgetBytes(), "half the heap");
        assertTrue(s.fileLocking());
    }

    @Test
    void theCacheFolderIsThePropertyElseTheVariableElseOneInTmpdir() {
        assertEquals(
                Settings.defaultCacheDir(Path.of("/my-tmp")),
                Environment.settings(Map.of("TMPDIR", "/my-tmp"), properties()).cacheDir());
        assertEquals(
                Path.of("/from-env"),
                Environment.settings(Map.of("TMPDIR", "/my-tmp", "SCFLUX_CACHE_DIR", "/from-env"), properties())
                        .cacheDir());
        assertEquals(
                Path.of("/from-property"),
                Environment.settings(
                                Map.of("SCFLUX_CACHE_DIR", "/from-env"),
                                properties("scflux.cache.dir", "/from-property"))
                        .cacheDir());
        assertEquals(
                Settings.defaultCacheDir(Path.of("/jvm-tmp")),
                Environment.settings(Map.of("SCFLUX_CACHE_DIR", "", "TMPDIR", ""), properties())
                        .cacheDir(),
                "an empty value is no value");
    }

    @Test
    void sizesBudgetAndLocking() {
        assertEquals(
                200L << 30,
                Environment.settings(Map.of("SCFLUX_CACHE_MAX", "200G"), properties())
                        .cacheMaxBytes());
        assertEquals(
                1024,
                Environment.settings(Map.of("SCFLUX_CACHE_MAX", "200G"), properties("scflux.cache.max", "1K"))
                        .cacheMaxBytes());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> Environment.settings(Map.of("SCFLUX_CACHE_MAX", "lots"), properties()));
        assertTrue(e.getMessage().startsWith("SCFLUX_CACHE_MAX: "), e.getMessage());
        assertEquals(
                3L << 20,
                Environment.settings(Map.of(), properties("scflux.memory.budget.mb", "3"))
                        .memoryBudgetBytes());
        assertEquals(
                0,
                Environment.settings(Map.of(), properties("scflux.memory.budget.mb", "x"))
                        .memoryBudgetBytes(),
                "not a number: half the heap, as before");
        for (String off : new String[] {"FALSE", "0", "no", " Off "}) {
            assertFalse(
                    Environment.settings(Map.of("HDF5_USE_FILE_LOCKING", off), properties())
                            .fileLocking(),
                    off);
        }
        assertTrue(Environment.settings(Map.of("HDF5_USE_FILE_LOCKING", "TRUE"), properties())
                .fileLocking());
    }
}
