/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of a few megabytes mounted for a test, to fill the disk for real: mounting needs root (as CI runs), so
 * {@link #mount} gives null and prints why when it cannot, and the test skips with that reason.
 */
public final class SmallTmpfs implements AutoCloseable {

    private final Path mountPoint;

    private SmallTmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /**
     * A tmpfs of {@code megabytes} on {@code mountPoint} (an empty folder), or null, after printing the reason given
     * to {@code skipped}, when it cannot be mounted here.
     */
    public static SmallTmpfs mount(Path mountPoint, int megabytes, StringBuilder skipped)
            throws IOException, InterruptedException {
        String output =
                run(List.of("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", mountPoint.toString()));
        if (output == null) {
            return new SmallTmpfs(mountPoint);
        }
        skipped.append("cannot mount a tmpfs here (").append(output.strip()).append(')');
        System.out.println("skipping the tmpfs case: " + skipped);
        return null;
    }

    public Path path() {
        return mountPoint;
    }

    /**
     * Unmounts it lazily: jhdf reads files through memory maps, which stay until their buffers are collected and keep
     * the mount busy meanwhile (no file descriptor does).
     */
    @Override
    public void close() throws IOException, InterruptedException {
        String failed = run(List.of("umount", "--lazy", mountPoint.toString()));
        if (failed != null) {
            throw new IOException("cannot unmount " + mountPoint + ": " + failed.strip());
        }
    }

    /** Runs {@code command}: null when it succeeded, else its output. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "timed out";
        }
        return p.exitValue() == 0 ? null : output;
    }
}
