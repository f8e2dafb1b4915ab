/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Settings;
import io.scflux.io.transposed.ByteSize;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * The {@link Settings} that the environment variables and system properties give a run, read here, at the edge, and
 * nowhere in the library (the service is a command of this line, and Python's package launches it): the list, with
 * what each does, is in {@code docs/command-line.md}, "Settings". A property, given on the {@code java} command line,
 * wins over the variable of the same setting; an empty value is no value.
 */
public final class Environment {

    private Environment() {}

    /**
     * The settings this process's environment variables and system properties give: what a front end other than the
     * command line (the Python package's engine) reads once at its start.
     *
     * @return the settings
     * @throws IllegalArgumentException naming the variable or property whose size is not one
     */
    public static Settings settings() {
        return settings(System.getenv(), System.getProperties());
    }

    /**
     * The settings {@code env} and {@code properties} give, {@link Settings#DEFAULT}'s where they give none.
     *
     * @param env the environment variables ({@link System#getenv()})
     * @param properties the system properties ({@link System#getProperties()})
     * @return the settings
     * @throws IllegalArgumentException naming the variable or property whose size is not one
     */
    static Settings settings(Map<String, String> env, Properties properties) {
        String dir = first(properties.getProperty("scflux.cache.dir"), env.get("SCFLUX_CACHE_DIR"));
        String tmp = first(env.get("TMPDIR"), properties.getProperty("java.io.tmpdir"));
        // java.io.tmpdir is set by every JVM (the command line passes System.getProperties())
        Path cacheDir = dir != null
                ? Paths.get(dir)
                : Settings.defaultCacheDir(Paths.get(Objects.requireNonNull(tmp, "java.io.tmpdir")));
        long cacheMax = Settings.DEFAULT_CACHE_MAX_BYTES;
        String max = properties.getProperty("scflux.cache.max");
        String maxFrom = "-Dscflux.cache.max";
        if (max == null || max.isEmpty()) {
            max = env.get("SCFLUX_CACHE_MAX");
            maxFrom = "SCFLUX_CACHE_MAX";
        }
        if (max != null && !max.isEmpty()) {
            try {
                cacheMax = ByteSize.parse(max);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(maxFrom + ": " + e.getMessage(), e);
            }
        }
        return new Settings(
                cacheDir, cacheMax, budget(properties.getProperty("scflux.memory.budget.mb")), locking(env));
    }

    /** {@code mb} MiB, or 0 (half the heap) when it is not a positive number, as {@link Long#getLong} reads it. */
    private static long budget(String mb) {
        try {
            long n = mb == null ? 0 : Long.decode(mb);
            return n > 0 ? n << 20 : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether HDF5's file locking is on: unless {@code HDF5_USE_FILE_LOCKING} is FALSE, 0, NO or OFF. */
    private static boolean locking(Map<String, String> env) {
        String v = env.get("HDF5_USE_FILE_LOCKING");
        return v == null
                || !List.of("FALSE", "0", "NO", "OFF").contains(v.strip().toUpperCase(Locale.ROOT));
    }

    /** {@code a} unless it is null or empty, else {@code b} likewise, else null. */
    private static @Nullable String first(@Nullable String a, @Nullable String b) {
        if (a != null && !a.isEmpty()) {
            return a;
        }
        return b == null || b.isEmpty() ? null : b;
    }
}
