/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real h5py process that holds an HDF5 file open ({@code "r"} or {@code "r+"}, so with the HDF5 library's own
 * {@code flock}) until told to let go; with {@code "r+"} it then writes the attribute {@code edited = "later"}, the
 * edit a rewrite behind its back would lose. For the tests of HDF5 file locks; a test without Debian's
 * {@code python3-h5py} is skipped, saying why.
 */
public final class H5pyHolder implements AutoCloseable {

    /** Debian's Python, which has h5py (the one on the PATH may not). */
    public static final String PYTHON = "/usr/bin/python3";

    private static final String SCRIPT = String.join(
            "\n",
            "import sys, h5py",
            "f = h5py.File(sys.argv[1], sys.argv[2])",
            "print('ready', flush=True)",
            "sys.stdin.readline()",
            "if sys.argv[2] == 'r+':",
            "    f.attrs['edited'] = 'later'",
            "f.close()",
            "print('closed', flush=True)");

    private final Process process;
    private final BufferedReader out;
    private boolean released;

    private H5pyHolder(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Starts h5py holding {@code file} open in {@code mode} and returns once it does (the lock taken).
     *
     * @param file an HDF5 file
     * @param mode h5py's mode: {@code "r"} or {@code "r+"}
     * @return the holder; close it to let go
     */
    public static H5pyHolder open(Path file, String mode) throws IOException {
        assumeH5py();
        Process p = new ProcessBuilder(PYTHON, "-c", SCRIPT, file.toString(), mode)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        H5pyHolder h = new H5pyHolder(p);
        String line = h.out.readLine();
        if (!"ready".equals(line)) {
            p.destroyForcibly();
            throw new IOException("h5py did not open " + file + " (" + mode + "): " + line);
        }
        return h;
    }

    /** Skips the calling test, saying why, unless {@link #PYTHON} imports h5py. */
    public static void assumeH5py() {
        String why = null;
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import h5py")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                why = PYTHON + " cannot import h5py";
            }
        } catch (IOException e) {
            why = PYTHON + " is not runnable: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            why = "interrupted";
        }
        if (why != null) {
            System.out.println("skipped: " + why);
        }
        Assumptions.assumeTrue(why == null, why);
    }

    /** The holder's process id, which a refusal names. */
    public long pid() {
        return process.pid();
    }

    /** Lets go: writes the edit (mode {@code "r+"}), closes the file and waits for the process to end. */
    @Override
    public void close() throws IOException {
        if (released) {
            return;
        }
        released = true;
        try (Writer in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)) {
            in.write("\n");
        }
        String line = out.readLine();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("h5py did not let go");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException(e);
        }
        if (!"closed".equals(line) || process.exitValue() != 0) {
            throw new IOException("h5py failed to write and close: " + line + ", exit " + process.exitValue());
        }
    }
}
