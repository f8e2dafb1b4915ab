/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.TemporaryFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Error that no subscriber hears of (out of memory on a worker) ends the CLI with one line and status 1, and the
 * files it was writing are removed as on a SIGTERM: {@link Scflux#fatal} runs the shutdown hooks before it halts.
 */
class FatalErrorTest {

    @TempDir
    Path tmp;

    @Test
    void aFatalErrorOnAWorkerRemovesTheUnfinishedFilesAndExitsOne() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx64m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Probe.class.getName(),
                        tmp.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the JVM stopped");
        assertEquals(1, p.exitValue(), err);
        assertTrue(err.startsWith("scflux: error: out of memory (probe) in a heap of "), err);
        assertTrue(err.contains("SCFLUX_JAVA_OPTS=-Xmx"), err);
        assertEquals(1, err.lines().count(), err);
        try (var files = Files.list(tmp)) {
            List<Path> left = files.toList();
            assertEquals(List.of(tmp.resolve("created")), left, "the unfinished file removed, the marker kept");
        }
        assertFalse(err.contains("Exception"), err);
    }

    /** Starts writing a temporary file, then fails on another thread while main waits, as the CLI's does. */
    static final class Probe {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            Path unfinished = TemporaryFiles.newFile(dir, "probe");
            Files.writeString(unfinished, "half a file");
            Files.writeString(dir.resolve("created"), unfinished.toString());
            Thread worker = new Thread(() -> Scflux.fatal(new OutOfMemoryError("probe")), "worker");
            worker.start();
            Thread.sleep(60_000);
        }
    }
}
