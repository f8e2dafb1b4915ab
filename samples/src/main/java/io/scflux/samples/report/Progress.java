package io.scflux.samples.report;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.ForwardingSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The progress of one pass over a source's blocks: blocks done out of the plan's, rows per second, shown as a bar on
 * stderr or sent to any {@link Listener} (the service's events). It counts the blocks a {@link #track tracked} source
 * hands out, so it works whoever consumes the blocks (a reducer, the writer), from any number of threads; it reports
 * at most a few times a second, and always the last block of a pass.
 */
public final class Progress {

    /** Shows nothing and tracks nothing. */
    public static final Progress NONE = new Progress(null);

    private static final long REDRAW_NANOS = 200_000_000L;
    private static final int WIDTH = 30;

    /** Receives the state of a pass: after its first block, at most a few times a second, and after its last. */
    public interface Listener {
        void update(int blocks, int totalBlocks, long rows, long totalRows, double rowsPerSecond, boolean last);
    }

    private final Listener listener;
    private long started;
    private long lastDrawn;
    private long rows;
    private int blocks;
    private int totalBlocks = -1;

    private Progress(Listener listener) {
        this.listener = listener;
    }

    /**
     * A bar on {@code err}, redrawn in place, one line per pass over X: its number, the share of rows done, blocks,
     * rows per second and the time left (at the end, the time it took).
     */
    public static Progress to(PrintWriter err) {
        int[] passes = {0};
        return new Progress((blocks, totalBlocks, rows, totalRows, rowsPerSecond, last) -> {
            double fraction = totalRows == 0 ? 1 : (double) rows / totalRows;
            int filled = (int) Math.round(fraction * WIDTH);
            double seconds = last ? rows / Math.max(rowsPerSecond, 1e-9)
                    : (totalRows - rows) / Math.max(rowsPerSecond, 1e-9);
            err.printf("\r[pass %d] [%s%s] %3d%%  %d%s blocks  %,.0f rows/s  %s %s", passes[0] + 1, "#".repeat(filled),
                    " ".repeat(WIDTH - filled), Math.round(100 * fraction), blocks,
                    totalBlocks >= 0 ? "/" + totalBlocks : "", rowsPerSecond, last ? "in" : "ETA", clock(seconds));
            if (last) {
                passes[0]++;
                err.println();
            }
            err.flush();
        });
    }

    /** {@code seconds} as m:ss (h:mm:ss past an hour). */
    public static String clock(double seconds) {
        long s = Math.round(Math.min(seconds, 359_999));
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    /** Reports to {@code listener}. */
    public static Progress to(Listener listener) {
        return new Progress(listener);
    }

    /** {@code source}, reporting here each block it reads; the plan it makes sets the total number of blocks. */
    public BlockSource track(BlockSource source) {
        if (listener == null) {
            return source;
        }
        Progress progress = this;
        return new ForwardingSource(source) {
            @Override
            public BlockPlan plan(PlanTarget target) {
                BlockPlan plan = source.plan(target);
                progress.expect(plan);
                return plan;
            }

            @Override
            public RowReader open() {
                RowReader reader = source.open();
                progress.start();
                return new RowReader() {
                    @Override
                    public RowBlock read(int blockIndex, long from, long to) {
                        RowBlock block = reader.read(blockIndex, from, to);
                        progress.done(block.nRows(), source.nRows());
                        return block;
                    }

                    @Override
                    public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
                        reader.readInto(blockIndex, from, to, into);
                        progress.done(into.nRows(), source.nRows());
                    }

                    @Override
                    public void close() {
                        reader.close();
                    }
                };
            }
        };
    }

    /** Sets the number of blocks of the coming pass. */
    private synchronized void expect(BlockPlan plan) {
        totalBlocks = plan.size();
    }

    private synchronized void start() {
        if (blocks == 0) {
            started = System.nanoTime();
        }
    }

    private synchronized void done(int blockRows, long totalRows) {
        long now = System.nanoTime();
        blocks++;
        rows += blockRows;
        boolean last = rows >= totalRows;
        if (last || now - lastDrawn >= REDRAW_NANOS) {
            lastDrawn = now;
            draw(now, totalRows, last);
        }
        if (last) {
            rows = 0;
            blocks = 0;
        }
    }

    private void draw(long now, long totalRows, boolean last) {
        double seconds = Math.max(1e-9, (now - started) / 1e9);
        listener.update(blocks, totalBlocks, rows, totalRows, rows / seconds, last);
    }
}
