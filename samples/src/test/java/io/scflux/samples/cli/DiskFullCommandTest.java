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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command whose output does not fit, for real, in a child JVM: on a small tmpfs (mounted here when the test may
 * mount one, as root in CI; otherwise skipped, saying why) and under a file size limit ({@code ulimit -f}, always).
 * It must end with exit 1 and one line saying the disk is full (or the limit reached) and where, leave no temporary
 * file and no JVM crash report: before this was fixed the JVM died in the HDF5 library's {@code H5D_close}.
 */
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
    void aFullDiskEndsWithOneLineAndNoCrash() throws Exception {
        Assumptions.assumeTrue(tmpfs != null, NO_TMPFS.toString());
        Path small = tmpfs.path();
        Path work = Files.createTempDirectory(root, "work");
        Result r = scflux(work, "", "--device", "cpu", "preprocess", IN, "--qc-var", "mt=MT-", "-o",
                small.resolve("out.h5ad").toString());
        assertOneError(r, "out.h5ad: /", "the disk is full: no space left on device in " + small);
        assertEquals(List.of(), list(small), "no temporary file on the full disk");
        assertEquals(List.of(), list(work), "no JVM crash report (hs_err_pid*.log)");
    }

    @Test
    void theFileSizeLimitEndsWithOneLineAndNoCrash() throws Exception {
        Path out = Files.createTempDirectory(root, "out");
        Path work = Files.createTempDirectory(root, "work");
        Result r = scflux(work, "ulimit -f 2000 && ", "--device", "cpu", "preprocess", IN, "-o",
                out.resolve("out.h5ad").toString());
        assertOneError(r, "out.h5ad: /", "the file would grow past the size this process may write (ulimit -f: "
                + 2000 * 1024 + " bytes) in " + out);
        assertEquals(List.of(), list(out), "no temporary file");
        assertEquals(List.of(), list(work), "no JVM crash report (hs_err_pid*.log)");
    }

    private static void assertOneError(Result r, String start, String says) {
        assertEquals(1, r.exit, r.output);
        List<String> lines = r.output.strip().lines().toList();
        assertEquals(1, lines.size(), "one line: " + r.output);
        assertTrue(lines.get(0).startsWith("scflux: error: " + start) && lines.get(0).contains(says), r.output);
    }

    /** scflux in a child JVM started by bash in {@code work}, after {@code shellPrefix} (e.g. a ulimit). */
    private static Result scflux(Path work, String shellPrefix, String... args) throws Exception {
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), Scflux.class.getName()));
        java.addAll(List.of(args));
        StringBuilder command = new StringBuilder(shellPrefix).append("exec");
        for (String a : java) {
            command.append(" '").append(a.replace("'", "'\\''")).append('\'');
        }
        return exec(work, List.of("bash", "-c", command.toString()));
    }

    private record Result(int exit, String output) {
    }

    private static Result exec(Path work, List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        return new Result(p.exitValue(), output);
    }

    private static List<Path> list(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.toList();
        }
    }
}
