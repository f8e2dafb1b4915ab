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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The import graph of the main code of every module (each {@code src/main/java} beside flux-core): no circle of files
 * through their imports, and in flux-core no import from a lower floor to a higher one. The floors: the root package
 * (blocks, plans, sources, memory) at the bottom; {@code pack} and {@code backend} (kernels, resident blocks) on it;
 * {@code cache} and {@code anndata} (the container) on top.
 */
class ImportGraphTest {

    private static final Map<String, Integer> CORE_FLOORS = Map.of(
            "io.scflux.core", 0,
            "io.scflux.core.pack", 1,
            "io.scflux.core.backend", 1,
            "io.scflux.core.cache", 2,
            "io.scflux.core.anndata", 2);

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;", Pattern.MULTILINE);

    @Test
    void theMainCodeHasNoCircleOfFiles() {
        Graph g = Graph.of(modulesRoot());
        assertTrue(g.classes.size() > 100, "the main sources were found: " + g.classes.size());
        assertEquals(List.of(), g.circles(), "circles of files through their imports");
    }

    @Test
    void coreImportsOnlyDownItsFloors() {
        Graph g = Graph.of(modulesRoot());
        Set<String> upward = new TreeSet<>();
        Set<String> corePackages = new TreeSet<>();
        g.imports.forEach((from, targets) -> {
            String fromPackage = g.packageOf.get(from);
            if (!fromPackage.startsWith("io.scflux.core")) {
                return;
            }
            corePackages.add(fromPackage);
            for (String to : targets) {
                String toPackage = g.packageOf.get(to);
                if (toPackage.startsWith("io.scflux.core")
                        && !toPackage.equals(fromPackage)
                        && CORE_FLOORS.get(toPackage) >= CORE_FLOORS.get(fromPackage)) {
                    upward.add(from + " -> " + to);
                }
            }
        });
        assertEquals(CORE_FLOORS.keySet(), corePackages, "every flux-core package has its floor");
        assertEquals(Set.of(), upward, "imports from a floor of flux-core to one not below it");
    }

    /** The check finds a circle when there is one: two files importing each other, and a third closing a loop. */
    @Test
    void aCircleIsFound(@TempDir Path root) throws IOException {
        write(root, "a", "p/A.java", "package p;\nimport q.B;\nclass A {}");
        write(root, "a", "q/B.java", "package q;\nimport p.A;\nimport static r.C.run;\nclass B {}");
        write(root, "b", "r/C.java", "package r;\nimport p.A.Inner;\nclass C {}");
        write(root, "b", "r/D.java", "package r;\nimport q.*;\nclass D {}");
        assertEquals(List.of(List.of("p.A", "q.B", "r.C")), Graph.of(root).circles());
    }

    private static void write(Path root, String module, String file, String text) throws IOException {
        Path p = root.resolve(module).resolve("src/main/java").resolve(file);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    /** The folder holding the modules: flux-core's parent (the tests run in flux-core's folder). */
    private static Path modulesRoot() {
        Path here = Path.of("").toAbsolutePath();
        return Files.isDirectory(here.resolve("flux-core")) ? here : here.getParent();
    }

    /** Classes of the main sources and the classes each imports (static and nested imports by their file). */
    private record Graph(Map<String, String> packageOf, Map<String, Set<String>> imports, Set<String> classes) {

        static Graph of(Path root) {
            Map<String, String> packageOf = new TreeMap<>();
            Map<String, String> text = new HashMap<>();
            try (Stream<Path> modules = Files.list(root)) {
                for (Path main : modules.map(m -> m.resolve("src/main/java"))
                        .filter(Files::isDirectory)
                        .toList()) {
                    try (Stream<Path> files = Files.walk(main)) {
                        for (Path f : files.filter(p -> p.toString().endsWith(".java"))
                                .toList()) {
                            String s = Files.readString(f);
                            Matcher m = PACKAGE.matcher(s);
                            String pkg = m.find() ? m.group(1) : "";
                            String name = f.getFileName().toString().replace(".java", "");
                            String fqn = pkg.isEmpty() ? name : pkg + "." + name;
                            packageOf.put(fqn, pkg);
                            text.put(fqn, s);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Map<String, Set<String>> imports = new TreeMap<>();
            text.forEach((from, s) -> {
                Set<String> to = new TreeSet<>();
                Matcher m = IMPORT.matcher(s);
                while (m.find()) {
                    if (m.group(3) != null && m.group(1) == null) {
                        continue; // a whole package: names no file
                    }
                    String target = m.group(2);
                    while (!packageOf.containsKey(target) && target.contains(".")) {
                        target = target.substring(0, target.lastIndexOf('.')); // a member or nested class
                    }
                    if (packageOf.containsKey(target) && !target.equals(from)) {
                        to.add(target);
                    }
                }
                imports.put(from, to);
            });
            return new Graph(packageOf, imports, packageOf.keySet());
        }

        /** Each circle (a strongly connected set of more than one file), its files sorted. */
        List<List<String>> circles() {
            List<List<String>> found = new ArrayList<>();
            Map<String, Integer> index = new HashMap<>();
            Map<String, Integer> low = new HashMap<>();
            Deque<String> stack = new ArrayDeque<>();
            Set<String> onStack = new java.util.HashSet<>();
            for (String start : classes) {
                if (!index.containsKey(start)) {
                    connect(start, index, low, stack, onStack, found);
                }
            }
            return found;
        }

        private void connect(
                String v,
                Map<String, Integer> index,
                Map<String, Integer> low,
                Deque<String> stack,
                Set<String> onStack,
                List<List<String>> found) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.push(v);
            onStack.add(v);
            for (String w : imports.getOrDefault(v, Set.of())) {
                if (!index.containsKey(w)) {
                    connect(w, index, low, stack, onStack, found);
                    low.put(v, Math.min(low.get(v), low.get(w)));
                } else if (onStack.contains(w)) {
                    low.put(v, Math.min(low.get(v), index.get(w)));
                }
            }
            if (low.get(v).equals(index.get(v))) {
                List<String> circle = new ArrayList<>();
                String w;
                do {
                    w = stack.pop();
                    onStack.remove(w);
                    circle.add(w);
                } while (!w.equals(v));
                if (circle.size() > 1) {
                    circle.sort(null);
                    found.add(circle);
                }
            }
        }
    }
}
