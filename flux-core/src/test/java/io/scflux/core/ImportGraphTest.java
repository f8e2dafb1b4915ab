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
 * The reference graph of the main code of every module (each {@code src/main/java} beside flux-core): a file refers to
 * what it imports and to every top-level type of its own package that its code names (comments and literals left out),
 * so that the files of one package are seen as well as the packages. No circle of files; no circle of packages; and in
 * flux-core, flux-ops and flux-io no reference from a lower floor to a higher one. The floors of core: the root package
 * (blocks, plans, sources, memory, the backends' transport and the run context) at the bottom; {@code pack} and
 * {@code backend} (the discovery of backends) on it; {@code cache} and {@code anndata} (the container) on top. Those of
 * ops: what several steps share (values, moments, the normalized view and their kernels) at the bottom, the
 * steps on it, the facade and the fused pipeline on top. Those of io: file safety (guards, stamps) at the bottom; the
 * HDF5 bytes (chunks, codecs, decoding) on it; the transposed store of CSC matrices on those; the h5ad encoding, its
 * writers and Cell Ranger's format on top.
 */
class ImportGraphTest {

    private static final Map<String, Integer> CORE_FLOORS = Map.of(
            "io.scflux.core", 0,
            "io.scflux.core.pack", 1,
            "io.scflux.core.backend", 1,
            "io.scflux.core.cache", 2,
            "io.scflux.core.anndata", 2);

    private static final Map<String, Integer> OPS_FLOORS = Map.ofEntries(
            Map.entry("io.scflux.ops.values", 0),
            Map.entry("io.scflux.ops.parameter", 0),
            Map.entry("io.scflux.ops.moments", 0),
            Map.entry("io.scflux.ops.normalized", 0),
            Map.entry("io.scflux.ops.linalg", 0),
            Map.entry("io.scflux.ops.qc", 1),
            Map.entry("io.scflux.ops.filter", 1),
            Map.entry("io.scflux.ops.normalize", 1),
            Map.entry("io.scflux.ops.log1p", 1),
            Map.entry("io.scflux.ops.hvg", 1),
            Map.entry("io.scflux.ops.pca", 1),
            Map.entry("io.scflux.ops.scale", 1),
            Map.entry("io.scflux.ops.markers", 1),
            Map.entry("io.scflux.ops.pseudobulk", 1),
            Map.entry("io.scflux.ops.concat", 1),
            Map.entry("io.scflux.ops.neighbors", 1),
            Map.entry("io.scflux.ops.leiden", 2),
            Map.entry("io.scflux.ops.umap", 2),
            Map.entry("io.scflux.ops", 3));

    private static final Map<String, Integer> IO_FLOORS = Map.of(
            "io.scflux.io.safety", 0,
            "io.scflux.io.hdf5", 1,
            "io.scflux.io.transposed", 2,
            "io.scflux.io", 3);

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^import\\s+(static\\s+)?([\\w.]+?)(\\.\\*)?\\s*;", Pattern.MULTILINE);
    /** A comment, a text block, a string or a char literal: what {@link Graph#code} leaves out. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])*'",
            Pattern.DOTALL);

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*");

    @Test
    void theMainCodeHasNoCircleOfFiles() {
        Graph g = Graph.of(modulesRoot());
        assertTrue(g.classes.size() > 100, "the main sources were found: " + g.classes.size());
        List<String> found = g.circles().stream()
                .map(c -> c.get(0) + " (" + c.size() + " files)")
                .toList();
        assertEquals(List.of(), found, "circles of files through their imports, same-package references included");
    }

    @Test
    void thePackagesHaveNoCircle() {
        Graph g = Graph.of(modulesRoot());
        Map<String, Set<String>> packages = new TreeMap<>();
        g.imports.forEach((from, targets) -> {
            for (String to : targets) {
                String fromPackage = g.packageOf.get(from);
                String toPackage = g.packageOf.get(to);
                packages.computeIfAbsent(fromPackage, k -> new TreeSet<>());
                packages.computeIfAbsent(toPackage, k -> new TreeSet<>());
                if (!fromPackage.equals(toPackage)) {
                    packages.get(fromPackage).add(toPackage);
                }
            }
        });
        assertEquals(List.of(), new Graph(Map.of(), packages, packages.keySet()).circles(), "circles of packages");
    }

    @Test
    void coreReferencesOnlyDownItsFloors() {
        assertFloors("io.scflux.core", CORE_FLOORS);
    }

    @Test
    void opsReferencesOnlyDownItsFloors() {
        assertFloors("io.scflux.ops", OPS_FLOORS);
    }

    @Test
    void ioReferencesOnlyDownItsFloors() {
        assertFloors("io.scflux.io", IO_FLOORS);
    }

    /** Every package of the module under {@code prefix} has its floor, and no file refers to a floor not below it. */
    private static void assertFloors(String prefix, Map<String, Integer> floors) {
        Graph g = Graph.of(modulesRoot());
        Set<String> upward = new TreeSet<>();
        Set<String> modulePackages = new TreeSet<>();
        g.imports.forEach((from, targets) -> {
            String fromPackage = g.packageOf.get(from);
            if (!inModule(fromPackage, prefix)) {
                return;
            }
            modulePackages.add(fromPackage);
            for (String to : targets) {
                String toPackage = g.packageOf.get(to);
                if (inModule(toPackage, prefix)
                        && !toPackage.equals(fromPackage)
                        && floors.getOrDefault(toPackage, Integer.MAX_VALUE)
                                >= floors.getOrDefault(fromPackage, Integer.MIN_VALUE)) {
                    upward.add(from + " -> " + to);
                }
            }
        });
        assertEquals(floors.keySet(), modulePackages, "every package of " + prefix + " has its floor");
        assertEquals(Set.of(), upward, "references from a floor of " + prefix + " to one not below it");
    }

    private static boolean inModule(String pkg, String prefix) {
        return pkg.equals(prefix) || pkg.startsWith(prefix + ".");
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

    /**
     * Files of one package that name each other without an import make a circle; a name in a comment, a string, a char
     * literal or inside a longer identifier makes none, nor does a type of another package named without import.
     */
    @Test
    void aCircleWithinAPackageIsFound(@TempDir Path root) throws IOException {
        write(root, "a", "p/A.java", "package p;\nclass A { B b; }");
        write(root, "a", "p/B.java", "package p;\nclass B { static C c() { return null; } }");
        write(root, "a", "p/C.java", "package p;\nclass C { Object a = A.class; }");
        String namesOnlyInCommentsAndLiterals = "/** {@link E} */\nclass D { String s = \"E\"; char c = 'E'; int AE; }";
        write(root, "a", "p/D.java", "package p;\n" + namesOnlyInCommentsAndLiterals);
        write(root, "a", "p/E.java", "package p;\nclass E { D d; q.F f; }");
        write(root, "a", "q/F.java", "package q;\nclass F { E e; }");
        Graph g = Graph.of(root);
        assertEquals(List.of(List.of("p.A", "p.B", "p.C")), g.circles());
        assertEquals(Set.of("p.D"), g.imports.get("p.E"));
        assertEquals(Set.of(), g.imports.get("p.D"));
        assertEquals(Set.of(), g.imports.get("q.F"));
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

    /**
     * Classes of the main sources and the classes each refers to: those it imports (static and nested imports by
     * their file) and the top-level types of its own package that its code names.
     */
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
            Map<String, Set<String>> typesOf = new HashMap<>();
            packageOf.forEach((fqn, pkg) ->
                    typesOf.computeIfAbsent(pkg, k -> new TreeSet<>()).add(fqn.substring(fqn.lastIndexOf('.') + 1)));
            Map<String, Set<String>> imports = new TreeMap<>();
            text.forEach((from, s) -> {
                Set<String> to = new TreeSet<>();
                String pkg = packageOf.get(from);
                Set<String> own = typesOf.get(pkg);
                Matcher id = IDENTIFIER.matcher(code(s));
                while (id.find()) {
                    String fqn = pkg.isEmpty() ? id.group() : pkg + "." + id.group();
                    if (own.contains(id.group()) && !fqn.equals(from)) {
                        to.add(fqn);
                    }
                }
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

        /** {@code source} without its comments and literals, each replaced by a space. */
        static String code(String source) {
            return NOT_CODE.matcher(source).replaceAll(" ");
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
