/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The results the service wrote into the data folder (the outputs of its jobs that ended done), oldest first, kept
 * under {@code --max-results-mb} together. Before a job starts, its output is estimated ({@link OutputEstimate}): a
 * job whose estimate alone is over the limit fails then, and for the others the oldest results are deleted until the
 * estimate fits beside the rest; when a job ends done, its output's real size is counted and the oldest others are
 * deleted until all fit. A deleted result's job says so ({@link Result#evicted}: its routes answer 410). Only files
 * this service wrote are deleted: inputs, and the results of an earlier run of the server, are neither counted nor
 * touched. Jobs that run at once each make room for themselves, so while they write the folder may hold more.
 */
final class Results {

    /** A result in the data folder: its file and size; evicted once deleted. */
    static final class Result {

        private final Path file;
        private final long bytes;
        private volatile boolean evicted;

        private Result(Path file, long bytes) {
            this.file = file;
            this.bytes = bytes;
        }

        /** Whether the file was deleted to keep the results under the limit. */
        boolean evicted() {
            return evicted;
        }
    }

    private static final double MIB = 1 << 20;

    private final long maxBytes;
    private final Deque<Result> kept = new ArrayDeque<>();
    private long total;

    /** Results kept under {@code maxBytes} (0: no limit). */
    Results(long maxBytes) {
        this.maxBytes = maxBytes == 0 ? Long.MAX_VALUE : maxBytes;
    }

    /**
     * Makes room for an output of at most {@code estimate} bytes, deleting the oldest results; an
     * IllegalArgumentException saying so when even all of the room would not hold it. Blocking (it deletes files).
     */
    synchronized void makeRoom(long estimate) {
        if (estimate > maxBytes) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "the output would take up to %.1f MiB by "
                            + "its estimate from the input, more than the %.1f MiB the results may take (--max-results-mb)",
                    estimate / MIB,
                    maxBytes / MIB));
        }
        evictWhileOver(maxBytes - estimate);
    }

    /**
     * Counts {@code file}, a job's output of {@code bytes}, and deletes the oldest other results until all fit.
     * Blocking.
     */
    synchronized Result add(Path file, long bytes) {
        Result result = new Result(file, bytes);
        evictWhileOver(maxBytes - bytes);
        kept.addLast(result);
        total += bytes;
        return result;
    }

    /** The bytes of the results kept now. */
    synchronized long total() {
        return total;
    }

    private void evictWhileOver(long room) {
        while (!kept.isEmpty() && total > room) {
            Result oldest = kept.removeFirst();
            total -= oldest.bytes;
            oldest.evicted = true;
            try {
                Files.deleteIfExists(oldest.file);
            } catch (IOException e) {
                // forgotten all the same: its routes answer 410, and the folder keeps a file the limit no longer counts
            }
        }
    }
}
