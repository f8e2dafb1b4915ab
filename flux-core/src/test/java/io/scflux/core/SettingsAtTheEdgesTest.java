/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library modules' main code reads no environment variable and no system property: the edges (the command line,
 * the service it serves, a test run's launcher) read them and hand the library {@link Settings}. Two JVM facts are
 * read where they are used, as facts and not settings: {@code java.io.tmpdir} (the default cache folder's parent) and
 * {@code user.name} (the cache folder's owner, where the uid is out of reach).
 */
class SettingsAtTheEdgesTest {

    private static final List<String> LIBRARY =
            List.of("flux-core", "flux-io", "flux-ops", "flux-device", "flux-spark");

    private static final Pattern READ = Pattern.compile(
            "System\\s*\\.\\s*(getenv|getProperty|getProperties)\\s*\\(([^)]*)\\)|(Long\\.getLong|Integer\\.getInteger"
                    + "|Boolean\\.getBoolean)\\s*\\(");

    private static final Set<String> FACTS = Set.of("\"java.io.tmpdir\"", "\"user.name\"", "\"user.name\", \"\"");

    @Test
    void libraryCodeReadsNoEnvironmentNorProperty() {
        Path here = Path.of("").toAbsolutePath();
        Path root = Files.isDirectory(here.resolve("flux-core")) ? here : here.getParent();
        Set<String> reads = new TreeSet<>();
        int files = 0;
        for (String module : LIBRARY) {
            Path main = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (Stream<Path> all = Files.walk(main)) {
                for (Path file : all.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    Matcher m = READ.matcher(Files.readString(file));
                    while (m.find()) {
                        if (m.group(1) == null || !FACTS.contains(m.group(2).strip())) {
                            reads.add(root.relativize(file) + ": " + m.group());
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertTrue(files > 100, "the main sources were found: " + files);
        assertEquals(Set.of(), reads, "settings read in library code, not at an edge");
    }

    /** The check finds a read: this file's own pattern, applied to a line that reads a variable. */
    @Test
    void theCheckSeesARead() {
        assertTrue(
                READ.matcher("String d = System.getenv(\"SCFLUX_CACHE_DIR\");").find());
        assertTrue(READ.matcher("long b = Long.getLong(\"scflux.memory.budget.mb\", -1);")
                .find());
    }
}
