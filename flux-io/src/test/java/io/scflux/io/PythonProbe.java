/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs Debian's {@code /usr/bin/python3} on a short script that reads a file with the real anndata or h5py and
 * prints one JSON object, which the test checks against the values it wrote.
 */
public final class PythonProbe {

    static final String PYTHON = "/usr/bin/python3";

    private PythonProbe() {}

    /** Skips the calling test, saying why, unless {@code python3 -c "import <module>"} works. */
    public static void assumeModule(String module) {
        String why = null;
        try {
            Result r = exec(List.of(PYTHON, "-c", "import " + module));
            if (r.exit != 0) {
                why = PYTHON + " cannot import " + module + ": " + r.stderr.strip();
            }
        } catch (IOException e) {
            why = PYTHON + " is not runnable: " + e.getMessage();
        }
        if (why != null) {
            System.out.println("skipped: " + why);
        }
        Assumptions.assumeTrue(why == null, why);
    }

    /** Runs {@code script} with {@code args} as {@code sys.argv[1:]} and parses what it prints as a JSON object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> json(String script, Object... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(PYTHON, "-c", script));
        for (Object a : args) {
            cmd.add(a.toString());
        }
        Result r = exec(cmd);
        assertEquals(0, r.exit, () -> "python failed:\n" + r.stderr);
        String out = r.stdout.strip();
        assertTrue(out.startsWith("{"), () -> "python printed no JSON:\n" + r.stdout + "\n" + r.stderr);
        return (Map<String, Object>) TinyJson.parse(out.substring(out.lastIndexOf("\n{") + 1));
    }

    private record Result(int exit, String stdout, String stderr) {}

    private static Result exec(List<String> cmd) throws IOException {
        Path out = Files.createTempFile("probe", ".out");
        Path err = Files.createTempFile("probe", ".err");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .start();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("python did not finish: " + cmd);
            }
            return new Result(
                    p.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
