/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command line started with {@code SCFLUX_CALLER_PIPE=1} (as the Python package starts it) stops when its stdin
 * ends, as it does when the caller is killed: the in-place rewrite under way is abandoned, its temporary file removed
 * and the input left byte-identical. Without the variable, stdin's end changes nothing.
 */
@Tag("slow")
class CallerWatchTest {

    @TempDir
    Path dir;

    @Test
    void theEndOfTheCallersPipeStopsTheRunAndRemovesItsTemporaryFile() throws Exception {
        Path input = synth();
        byte[] before = digest(input);
        Process p = rewrite(input, true);
        waitForTemporaryFile(p);
        p.getOutputStream().close(); // what the caller's death does to the pipe
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "the JVM stops within seconds");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.exitValue(), err);
        assertEquals(
                "scflux: error: stopped: the caller closed stdin (it exited, was killed or cancelled)", err.strip());
        assertArrayEquals(before, digest(input), "the input is unchanged");
        assertEquals(List.of("in.h5ad"), files(), "no temporary file is left");
    }

    @Test
    void withoutTheVariableStdinIsNotWatched() throws Exception {
        Path input = synth();
        byte[] before = digest(input);
        Process p = rewrite(input, false);
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(!MessageDigest.isEqual(before, digest(input)), "the rewrite completed");
        assertEquals(List.of("in.h5ad"), files());
    }

    private Path synth() {
        Path input = dir.resolve("in.h5ad");
        assertEquals(
                0,
                Cli.run(
                                "synth",
                                "--cells",
                                "20000",
                                "--genes",
                                "2000",
                                "--nnz-per-cell",
                                "300",
                                "--compression",
                                "gzip",
                                "-o",
                                input.toString())
                        .exitCode());
        return input;
    }

    private Process rewrite(Path input, boolean watched) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder b = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Scflux.class.getName(),
                        "-q",
                        "--threads",
                        "1",
                        "log1p",
                        input.toString(),
                        "--in-place")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        b.environment().remove(CallerWatch.ENVIRONMENT);
        if (watched) {
            b.environment().put(CallerWatch.ENVIRONMENT, "1");
        }
        return b.start();
    }

    /** Waits until the child has created its temporary output (it is then writing), at most 60 s. */
    private void waitForTemporaryFile(Process p) throws Exception {
        String mark = ".scflux-" + p.pid() + "-";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (files().stream().noneMatch(n -> n.contains(mark))) {
            assertTrue(p.isAlive() && System.nanoTime() < deadline, "the child created no temporary output");
            Thread.sleep(1);
        }
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static byte[] digest(Path file) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    }
}
