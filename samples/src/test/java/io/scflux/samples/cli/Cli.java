/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/** Runs the {@code scflux} command line in-process and keeps its exit code, stdout and stderr. */
record Cli(int exitCode, String out, String err) {

    /** The reference fixtures, from the samples module's directory (where the tests run). */
    static final Path FIXTURES = Path.of("../flux-io/src/test/resources/fixtures");

    /** Runs {@code args} on the command line {@code main} builds for them (the one command they start with). */
    static Cli run(String... args) {
        CommandLine cl = Scflux.commandLine(args);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Cli(code, out.toString(), err.toString());
    }

    /**
     * Runs a command whose last argument is the file it writes, asserts that it succeeded and said so, and reads
     * that file.
     */
    static AnnData written(String... args) {
        Cli c = run(args);
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().contains("wrote "), c.out());
        return H5ad.read(Path.of(args[args.length - 1]));
    }

    /** The JSON line {@code --stats} prints last on stderr. */
    JsonNode stats() throws Exception {
        String[] lines = err.strip().split("\n");
        return new ObjectMapper().readTree(lines[lines.length - 1]);
    }
}
