/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import io.scflux.core.BlockSource;
import io.scflux.core.ForwardingSource;
import io.scflux.core.Pass;
import io.scflux.core.RowReader;
import java.io.PrintWriter;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The progress of the passes over a source's blocks (X), each numbered in the order it starts and named for what it
 * computes ({@link Pass#named}: {@code qc}, {@code hvg}, {@code write}), in the blocks and rows of its own plan: shown
 * as a line per pass on stderr or sent to any {@link Listener} (the service's events). A {@link #track tracked}
 * source watches every pass that reads it, however deep under views and caches, whoever consumes the blocks (a
 * reducer, the writer), from any number of threads; each pass is reported at most a few times a second, and always
 * after its last block.
 */
public final class Progress {

    /** Shows nothing and tracks nothing. */
    public static final Progress NONE = new Progress(null);

    private static final long REDRAW_NANOS = 200_000_000L;

    /**
     * The state of a pass: its number (from 1, in the order the passes start), its name (null when no step named
     * it), blocks and rows read of its plan's, rows per second since it started, whether it read its last block.
     */
    public record Report(
            int pass,
            @Nullable String name,
            int blocks,
            int totalBlocks,
            long rows,
            long totalRows,
            double rowsPerSecond,
            boolean last) {

        /** The share of the rows read, 1 for a pass of none. */
        public double fraction() {
            return totalRows == 0 ? 1 : (double) rows / totalRows;
        }
    }

    /** Receives the state of each pass: after its first block, at most a few times a second, and after its last. */
    @FunctionalInterface
    public interface Listener {
        void update(Report report);
    }

    private final @Nullable Listener listener;
    private int passes;

    private Progress(@Nullable Listener listener) {
        this.listener = listener;
    }

    /**
     * Lines on {@code err}, one per pass, redrawn in place: {@code [3 hvg] 62% 2,806/4,638 blocks 61k rows/s ETA
     * 0:04}, at the end of a pass the time it took ({@code in 0:07}).
     */
    public static Progress to(PrintWriter err) {
        int[] drawing = {0}; // the pass whose line is open, 0: none
        return new Progress(report -> {
            synchronized (drawing) {
                if (drawing[0] != 0 && drawing[0] != report.pass()) {
                    err.println(); // another pass reports in the middle of this one's line
                }
                err.print("\r" + line(report));
                drawing[0] = report.last() ? 0 : report.pass();
                if (report.last()) {
                    err.println();
                }
                err.flush();
            }
        });
    }

    /** Reports to {@code listener}. */
    public static Progress to(Listener listener) {
        return new Progress(listener);
    }

    /**
     * A pass's line: its number and name, the share of rows, blocks, rows per second and the time left (the time it
     * took once done): {@code [3 hvg] 62% 2,806/4,638 blocks 61k rows/s ETA 0:04}.
     */
    public static String line(Report r) {
        double seconds = (r.last() ? r.rows() : r.totalRows() - r.rows()) / Math.max(r.rowsPerSecond(), 1e-9);
        return String.format(
                Locale.ROOT,
                "[%d%s] %d%% %,d/%,d blocks %s rows/s %s %s",
                r.pass(),
                r.name() == null ? "" : " " + r.name(),
                (int) Math.floor(100 * r.fraction()),
                r.blocks(),
                r.totalBlocks(),
                compact(r.rowsPerSecond()),
                r.last() ? "in" : "ETA",
                clock(seconds));
    }

    /** {@code x} in at most 3 significant digits: 950, 61k, 1.2M. */
    static String compact(double x) {
        if (x < 1_000) {
            return String.format(Locale.ROOT, "%.0f", x);
        }
        if (x < 999_500) {
            return String.format(Locale.ROOT, x < 9_950 ? "%.1fk" : "%.0fk", x / 1e3);
        }
        return String.format(Locale.ROOT, x < 9_950_000 ? "%.1fM" : "%.0fM", x / 1e6);
    }

    /** {@code seconds} as m:ss (h:mm:ss past an hour). */
    public static String clock(double seconds) {
        long s = Math.round(Math.min(seconds, 359_999));
        return s >= 3600
                ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** {@code source}, each pass that opens it reported here. */
    public BlockSource track(BlockSource source) {
        Listener to = listener;
        if (to == null) {
            return source;
        }
        return new ForwardingSource(source) {
            @Override
            public RowReader open(Pass pass) {
                pass.watch(new Watcher(to));
                return source.open(pass);
            }
        };
    }

    private synchronized int nextPass() {
        return ++passes;
    }

    /** One pass's report: numbered at its first block, redrawn at most every {@link #REDRAW_NANOS}. */
    private final class Watcher implements Pass.Watcher {
        private final Listener to;
        private final long started = System.nanoTime();
        private int number;
        private long lastDrawn;

        Watcher(Listener to) {
            this.to = to;
        }

        @Override
        public void read(Pass pass, int blocksRead, long rowsRead) {
            if (number == 0) {
                number = nextPass();
            }
            long now = System.nanoTime();
            boolean last = blocksRead >= pass.blocks();
            if (last || now - lastDrawn >= REDRAW_NANOS) {
                lastDrawn = now;
                double seconds = Math.max(1e-9, (now - started) / 1e9);
                to.update(new Report(
                        number,
                        pass.name(),
                        blocksRead,
                        pass.blocks(),
                        rowsRead,
                        pass.rows(),
                        rowsRead / seconds,
                        last));
            }
        }
    }
}
