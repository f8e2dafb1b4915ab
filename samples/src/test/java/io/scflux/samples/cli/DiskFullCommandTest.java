/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.io.test.TestFixtures;
import io.scflux.samples.test.SmallTmpfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command's output on a disk that is tight, for real, in a child JVM: a small tmpfs (mounted here when the test may
 * mount one, as root in CI; otherwise skipped, saying why) and a file size limit ({@code ulimit -f}, always). An
 * output that fits is written, however little room is left beside it (the space check used to ask for 8 MiB and
 * every chunk cache more, and refused an 11 MB file on a 12 MiB tmpfs "as a full disk"); one that cannot fit ends
 * with exit 1 and one line saying what it needs and what is free in the folder as it was given, before anything is
 * written: no temporary file and no JVM crash report (the JVM once died in the HDF5 library's {@code H5D_close}).
 */
@Tag("slow")
class DiskFullCommandTest {

    private static final String IN = TestFixtures.path("synth-3k.int64.h5ad").toString();

    @TempDir
    static Path root;

    private static SmallTmpfs tmpfs;
    private static final StringBuilder NO_TMPFS = new StringBuilder();

    @BeforeAll
    static void mountSmallTmpfs() throws Exception {
        tmpfs = SmallTmpfs.mount(Files.createDirectory(root.resolve("small")), 12, NO_TMPFS);
    }

    @AfterAll
    static void unmount() throws Exception {
        if (tmpfs != null) {
            tmpfs.close();
        }
    }

    @Test
    void anOutputThatFitsATightDiskIsWritten() throws Exception {
        Assumptions.assumeTrue(tmpfs != null, NO_TMPFS.toString());
        Path small = tmpfs.path();
        long free = Files.getFileStore(small).getUsableSpace();
        Result r = scflux(root, "", "--device", "cpu", "qc", IN, "-o", "small/qc.h5ad");
        assertEquals(0, r.exit, r.output);
        assertEquals(List.of(), crashReports(), "no JVM crash report");
        long written = Files.size(small.resolve("qc.h5ad"));
        System.out.printf("DiskFullCommandTest: qc wrote %d bytes where %d were free%n", written, free);
        assertTrue(written > free * 3 / 4, "a file that nearly fills the disk: " + written + " of " + free);
        Files.delete(small.resolve("qc.h5ad"));
    }

    @Test
    void anOutputThatCannotFitIsRefusedInOneLineBeforeItIsWritten() throws Exception {
        Assumptions.assumeTrue(tmpfs != null, NO_TMPFS.toString());
        Path small = tmpfs.path();
        Path filler = small.resolve("filler.bin");
        fill(filler, Files.getFileStore(small).getUsableSpace() - (4L << 20));
        try {
            Result r = scflux(root, "", "--device", "cpu", "qc", IN, "-o", "small/qc.h5ad");
            System.out.println("DiskFullCommandTest: " + r.output.strip());
            assertOneError(r, "qc.h5ad: needs about ", " MB free in small");
            assertTrue(
                    r.output
                            .strip()
                            .matches("scflux: error: qc\\.h5ad: needs about 1\\d\\.\\d MB, 4\\.\\d MB free in "
                                    + "small"),
                    r.output);
            assertEquals(List.of(filler), list(small), "no temporary file on the disk");
            assertEquals(List.of(), crashReports(), "no JVM crash report");
        } finally {
            Files.delete(filler);
        }
    }

    @Test
    void theFileSizeLimitEndsWithOneLineAndNoCrash() throws Exception {
        Path out = Files.createTempDirectory(root, "out");
        Path work = Files.createTempDirectory(root, "work");
        Result r = scflux(
                work,
                "ulimit -f 2000 && ",
                "--device",
                "cpu",
                "preprocess",
                IN,
                "-o",
                out.resolve("out.h5ad").toString());
        assertOneError(
                r,
                "out.h5ad: needs about ",
                " MB, more than the file size this process may write (ulimit -f: " + 2000 * 1024 + " bytes) in " + out);
        assertEquals(List.of(), list(out), "no temporary file");
        assertEquals(List.of(), list(work), "no JVM crash report (hs_err_pid*.log)");
    }

    /** Writes {@code bytes} zeros to {@code file}, for real (a sparse file would take no space). */
    private static void fill(Path file, long bytes) throws IOException {
        byte[] chunk = new byte[1 << 16];
        try (var out = Files.newOutputStream(file)) {
            for (long left = bytes; left > 0; left -= chunk.length) {
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
        }
    }

    private static void assertOneError(Result r, String start, String says) {
        assertEquals(1, r.exit, r.output);
        List<String> lines = r.output.strip().lines().toList();
        assertEquals(1, lines.size(), "one line: " + r.output);
        assertTrue(
                lines.get(0).startsWith("scflux: error: " + start)
                        && lines.get(0).contains(says),
                r.output);
    }

    /** scflux in a child JVM started by bash in {@code work}, after {@code shellPrefix} (e.g. a ulimit). */
    private static Result scflux(Path work, String shellPrefix, String... args) throws Exception {
        List<String> java = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                Scflux.class.getName()));
        java.addAll(List.of(args));
        StringBuilder command = new StringBuilder(shellPrefix).append("exec");
        for (String a : java) {
            command.append(" '").append(a.replace("'", "'\\''")).append('\'');
        }
        return exec(work, List.of("bash", "-c", command.toString()));
    }

    private record Result(int exit, String output) {}

    private static Result exec(Path work, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        return new Result(p.exitValue(), output);
    }

    /** The JVM crash reports (hs_err_pid*.log) in the folder the tight-disk runs start in. */
    private static List<Path> crashReports() throws IOException {
        return list(root).stream()
                .filter(f -> f.getFileName().toString().startsWith("hs_err"))
                .toList();
    }

    private static List<Path> list(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.toList();
        }
    }
}
