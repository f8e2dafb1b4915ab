/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A child JVM stopped by SIGTERM or SIGINT (a scheduler's time limit, Ctrl-C) in the middle of a write, waiting for a
 * block or writing one after another: it exits with the signal's status and leaves neither target nor temporary file.
 */
class H5adWriterSignalTest {

    /** What the child prints once its temporary file is open and blocks are being written. */
    private static final String WRITING = "child: writing out.h5ad";

    @TempDir
    Path tmp;

    private Path dir;

    @BeforeEach
    void createOutputFolder() throws IOException {
        dir = Files.createDirectory(tmp.resolve("out"));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sigtermDeletesTheTemporaryFile(boolean waiting) throws Exception {
        Process p = writingChild(waiting);
        p.destroy(); // SIGTERM
        assertLeftNothing(p, 128 + 15);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sigintDeletesTheTemporaryFile(boolean waiting) throws Exception {
        Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored by this process, and so by its children");
        Process p = writingChild(waiting);
        assertEquals(
                0,
                new ProcessBuilder("kill", "-INT", Long.toString(p.pid()))
                        .start()
                        .waitFor());
        assertLeftNothing(p, 128 + 2);
    }

    /**
     * A child JVM writing {@code out.h5ad} in {@link #dir}, once it is in the middle of it: waiting forever for a
     * block, or writing a block every millisecond or so.
     */
    private Process writingChild(boolean waiting) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = tmp.resolve("child.log");
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx128m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Child.class.getName(),
                        dir.resolve("out.h5ad").toString(),
                        Boolean.toString(waiting))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log, StandardCharsets.UTF_8).contains(WRITING)) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                p.destroyForcibly();
                throw new AssertionError("the child did not start writing:\n" + Files.readString(log));
            }
            Thread.sleep(20);
        }
        List<String> files = files();
        assertEquals(1, files.size(), files::toString);
        assertTrue(files.get(0).startsWith(".out.h5ad.scflux-" + p.pid() + "-"), files::toString);
        return p;
    }

    private void assertLeftNothing(Process p, int status) throws Exception {
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the child did not exit on the signal");
        }
        assertEquals(status, p.exitValue());
        assertEquals(List.of(), files(), "neither the target nor the temporary file remains");
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** Whether SIGINT (bit 2 of SigIgn) is ignored: a JVM then installs no handler for it, and Ctrl-C is moot. */
    private static boolean sigintIgnored() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 2) != 0;
            }
        }
        return false;
    }

    /**
     * The child: writes 100000 rows in blocks of 10 entries to {@code args[0]}, and before reading the sixth block
     * waits forever ({@code args[1]} true) or says it is writing, sleeping a millisecond before each block from then.
     */
    static final class Child {

        public static void main(String[] args) {
            CsrMatrix.Builder b = CsrMatrix.builder(10);
            for (int r = 0; r < 100_000; r++) {
                b.addRow(new int[] {r % 10}, new float[] {r});
            }
            boolean waiting = Boolean.parseBoolean(args[1]);
            CountDownLatch never = new CountDownLatch(1);
            ScriptedSource source = new ScriptedSource(b.build(), block -> {
                if (block == 5) {
                    System.out.println(WRITING);
                    System.out.flush();
                }
                try {
                    if (block == 5 && waiting) {
                        never.await();
                    } else if (block >= 5) {
                        Thread.sleep(1);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            H5ad.write(AnnData.of(source), Path.of(args[0]), WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(10)))
                    .block();
        }
    }
}
