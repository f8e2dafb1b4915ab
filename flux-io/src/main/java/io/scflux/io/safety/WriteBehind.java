/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.safety;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Flushes a file that is being written to disk every tenth of a second, on a daemon thread, so that the disk writes
 * while the pipeline computes and the force of {@code AtomicOutput.commit} finds little left: a 2.4 GB output was
 * otherwise written out all at once at the end, a few seconds of a pipeline that had nothing else to do by then. The
 * period was measured, not derived: flushing once a second, the 200,000-cell preprocess took 7.0 s (median of four
 * runs, output on ext4), every 250 ms 6.0 s, every 100 ms 5.8 s, alternating in one run: more than the final force
 * alone explains, as if the large flushes also held the writes up. On a slow disk the flushes follow one another,
 * each writing more.
 *
 * <p>Public because the h5ad writer's atomic output, in the package above, starts it.
 */
public final class WriteBehind {

    private static final long PERIOD_MS = 100;
    private static final ScheduledExecutorService FLUSHER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "scflux-write-behind");
        t.setDaemon(true);
        return t;
    });

    private final FileChannel channel;
    private final ScheduledFuture<?> task;

    private WriteBehind(FileChannel channel) {
        this.channel = channel;
        this.task = FLUSHER.scheduleWithFixedDelay(this::flush, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    /** Starts flushing {@code file}; null when it cannot be opened (the write itself reports real problems). */
    public static @Nullable WriteBehind start(Path file) {
        try {
            return new WriteBehind(FileChannel.open(file, StandardOpenOption.WRITE));
        } catch (IOException e) {
            return null;
        }
    }

    private void flush() {
        try {
            channel.force(false);
        } catch (IOException e) {
            // closed under it by stop(), or a disk error that the final force at commit reports
        }
    }

    /** Stops flushing and closes the file's descriptor; a flush under way may end early. */
    public void stop() {
        task.cancel(false);
        try {
            channel.close();
        } catch (IOException e) {
            // nothing was written through this descriptor
        }
    }
}
