/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs Debian's {@code /usr/bin/python3} with anndata for interop checks; tests skip, saying why, without it. */
final class Python {

    private static final String PYTHON = "/usr/bin/python3";
    private static Boolean available;

    private Python() {}

    /** Skips the calling test when python3 cannot import anndata. */
    static void assumeAnndata() {
        if (available == null) {
            try {
                available = exec("import anndata", List.of()).exitCode == 0;
            } catch (IOException e) {
                available = false;
            }
            if (!available) {
                System.err.println("skipping interop test: " + PYTHON + " -c 'import anndata' fails "
                        + "(apt-get install python3-anndata)");
            }
        }
        assumeTrue(available, PYTHON + " cannot import anndata");
    }

    /** Runs {@code script} with {@code args} in sys.argv[1:]; fails the test unless it exits 0; returns stdout. */
    static String run(String script, String... args) throws IOException {
        Result r = exec(script, List.of(args));
        assertEquals(0, r.exitCode, "python failed:\n" + r.output);
        return r.output;
    }

    private record Result(int exitCode, String output) {}

    private static Result exec(String script, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(PYTHON, "-c", script));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            return new Result(p.waitFor(), out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
