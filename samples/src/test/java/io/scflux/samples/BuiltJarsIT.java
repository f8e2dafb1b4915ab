/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The jars {@code package} built name no path of the machine that built them: no entry (manifest, resource, class)
 * holds the checkout's absolute path, which is wrong on every other machine. {@code scflux-spark.jar} exists with the
 * spark profile only; beside it, {@code spark-home} is the build's link to the Spark home it runs on from a checkout.
 */
class BuiltJarsIT {

    private static final Path TARGET = Path.of("target").toAbsolutePath();

    @ParameterizedTest
    @ValueSource(strings = {"scflux.jar", "scflux-spark.jar"})
    void noEntryNamesTheCheckout(String name) throws IOException {
        Path jar = TARGET.resolve(name);
        if (name.equals("scflux-spark.jar") && !Files.exists(jar)) {
            return; // built by -Pspark only
        }
        assertTrue(Files.isRegularFile(jar), jar + " is built by package");
        List<String> naming = new ArrayList<>();
        List<byte[]> checkout = checkoutPaths().stream()
                .map(p -> p.getBytes(StandardCharsets.UTF_8))
                .toList();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                if (entry.isDirectory()) {
                    continue;
                }
                byte[] bytes;
                try (InputStream in = file.getInputStream(entry)) {
                    bytes = in.readAllBytes();
                }
                if (checkout.stream().anyMatch(path -> indexOf(bytes, path) >= 0)) {
                    naming.add(entry.getName());
                }
            }
        }
        assertEquals(List.of(), naming, name + ": entries that name the checkout " + checkoutPaths());
        if (name.equals("scflux-spark.jar")) {
            Path home = TARGET.resolve("spark-home").resolve("jars");
            try (Stream<Path> jars = Files.list(home)) {
                assertTrue(
                        jars.anyMatch(p -> p.getFileName().toString().startsWith("spark-core_")),
                        "the Spark home beside " + name + " has Spark's jars: " + home);
            }
        }
    }

    /** The checkout's folder (samples' parent) as the build spelt it, and its real path. */
    private static Set<String> checkoutPaths() throws IOException {
        Path root = TARGET.getParent().getParent();
        Set<String> paths = new LinkedHashSet<>();
        paths.add(root.toString());
        paths.add(root.toRealPath().toString());
        return paths;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (haystack[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
