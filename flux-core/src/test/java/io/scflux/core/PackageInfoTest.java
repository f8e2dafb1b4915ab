/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of main code (each module's {@code src/main/java}, and the other source folders beside it that are
 * not tests) has a {@code package-info.java} that marks it {@code @NullMarked}: NullAway checks only marked code, so a
 * new package without one would silently go unchecked.
 */
class PackageInfoTest {

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern MARKED = Pattern.compile("^@NullMarked\\s+package\\s", Pattern.MULTILINE);

    @Test
    void everyMainPackageIsNullMarked() throws IOException {
        Set<String> packages = new TreeSet<>();
        Set<String> marked = new TreeSet<>();
        for (Path root : mainRoots()) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String text = Files.readString(f);
                    Matcher m = PACKAGE.matcher(text);
                    if (!m.find()) {
                        continue;
                    }
                    packages.add(m.group(1));
                    if (f.getFileName().toString().equals("package-info.java")
                            && MARKED.matcher(text).find()
                            && text.contains("import org.jspecify.annotations.NullMarked;")) {
                        marked.add(m.group(1));
                    }
                }
            }
        }
        assertTrue(packages.size() > 10, "the main packages were found: " + packages);
        Set<String> unmarked = new TreeSet<>(packages);
        unmarked.removeAll(marked);
        assertEquals(Set.of(), unmarked, "packages without a package-info.java marking them @NullMarked");
    }

    /** Each module's source folders of main code: {@code src/<name>/java} where the name is not a test's. */
    private static Set<Path> mainRoots() throws IOException {
        Path here = Path.of("").toAbsolutePath();
        Path modules = Files.isDirectory(here.resolve("flux-core")) ? here : here.getParent();
        Set<Path> roots = new TreeSet<>();
        try (Stream<Path> ms = Files.list(modules)) {
            for (Path src :
                    ms.map(m -> m.resolve("src")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> kinds = Files.list(src)) {
                    kinds.filter(k -> !k.getFileName().toString().contains("test"))
                            .map(k -> k.resolve("java"))
                            .filter(Files::isDirectory)
                            .forEach(roots::add);
                }
            }
        }
        return roots;
    }
}
