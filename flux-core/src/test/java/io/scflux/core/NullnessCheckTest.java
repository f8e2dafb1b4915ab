/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build fails on a nullness mistake: javac with the build's own Error Prone flags (the parent pom's
 * {@code errorprone.plugin}, handed in by surefire) and Maven's JVM options ({@code .mvn/jvm.config}) refuses a
 * dereference of a {@code @Nullable} value in {@code @NullMarked} code, and accepts the same value checked first.
 */
class NullnessCheckTest {

    private static final String SNIPPET = """
            package demo;

            import org.jspecify.annotations.NullMarked;
            import org.jspecify.annotations.Nullable;

            @NullMarked
            class Snippet {
                static @Nullable String maybe(boolean b) {
                    return b ? "x" : null;
                }

                static int checked(boolean b) {
                    String s = maybe(b);
                    return s == null ? 0 : s.length();
                }

                static int unchecked(boolean b) {
                    return maybe(b).length();
                }
            }
            """;

    @Test
    void aDereferenceOfANullableFailsTheCompile(@TempDir Path dir) throws IOException, InterruptedException {
        String plugin = System.getProperty("errorprone.plugin");
        assertTrue(plugin != null && plugin.startsWith("-Xplugin:ErrorProne"), "the build's flags: " + plugin);
        Path source = dir.resolve("demo/Snippet.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, SNIPPET);
        String classPath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "javac").toString());
        for (String option : jvmConfig()) {
            command.add("-J" + option);
        }
        command.addAll(List.of(
                "-XDcompilePolicy=simple",
                "--should-stop=ifError=FLOW",
                "-processorpath",
                classPath,
                "-classpath",
                classPath,
                "-d",
                dir.resolve("out").toString(),
                plugin,
                source.toString()));
        Process javac = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, javac.waitFor(), output);
        assertTrue(
                output.contains("Snippet.java:18: error: [NullAway] dereferenced expression 'maybe(b)' is @Nullable"),
                output);
        assertEquals(1, Pattern.compile(": error: ").splitAsStream(output).count() - 1, output);
    }

    /** The options Maven's JVM runs with, one a line: among them the exports of jdk.compiler Error Prone needs. */
    private static List<String> jvmConfig() throws IOException {
        Path here = Path.of("").toAbsolutePath();
        Path root = Files.isDirectory(here.resolve(".mvn")) ? here : here.getParent();
        return Files.readAllLines(root.resolve(".mvn/jvm.config")).stream()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .toList();
    }
}
