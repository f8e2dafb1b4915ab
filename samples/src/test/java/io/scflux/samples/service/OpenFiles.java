/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * This process's open file descriptors, from {@code /proc/self/fd} (Linux), counted by what each is open on: a file by
 * its path, a socket, pipe or other anonymous inode by its kind (a closed connection and a new one count the same).
 * The jars of the class path are left out: a class loader opens one when it first needs it and keeps it open.
 */
final class OpenFiles {

    private static final Path FDS = Path.of("/proc/self/fd");

    private OpenFiles() {}

    /** The open descriptors now, by what they are open on. */
    static Map<String, Integer> now() {
        Map<String, Integer> open = new TreeMap<>();
        try (Stream<Path> fds = Files.list(FDS)) {
            for (Path fd : fds.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed since it was listed (the listing's own descriptor among them)
                }
                if (!target.endsWith(".jar")) {
                    open.merge(target.replaceFirst("^(\\w+):\\[\\d+]$", "$1"), 1, Integer::sum);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return open;
    }

    /** How many descriptors {@code open} counts. */
    static int total(Map<String, Integer> open) {
        return open.values().stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * Waits up to {@code patience} for the descriptors open beyond {@code before} to close, and gives those still open
     * then (empty when all closed), by what they are open on.
     */
    static Map<String, Integer> awaitBack(Map<String, Integer> before, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            Map<String, Integer> extra = new TreeMap<>();
            now().forEach((target, n) -> {
                int more = n - before.getOrDefault(target, 0);
                if (more > 0) {
                    extra.put(target, more);
                }
            });
            if (extra.isEmpty() || System.nanoTime() > deadline) {
                return extra;
            }
            Thread.sleep(50);
        }
    }
}
