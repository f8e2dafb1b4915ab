package io.scflux.core;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A source whose reads also fold a {@link Reducer}: the first pass that reads every block of a plan (a write of X,
 * another step's pass) makes the reducer's result on the way, so a step whose results can ride along (QC's columns
 * beside normalized X) costs no pass of its own. Blocks come back as read; the partials of the blocks are merged in
 * block order, so the result depends on the plan only, never on the threads.
 *
 * <p>Asking for the {@link #result} before every block was read, or reading rows outside the plan, runs
 * {@code fallback} (the reducer's own pass) first, once: reads and result are then right whatever comes first. The
 * folds happen in this JVM: a step that runs its passes elsewhere (on Spark) does not make one.
 *
 * @param <A> the reducer's partial
 */
public final class FoldingSource<A> extends ForwardingSource {

    private final Ride<A> ride;

    /**
     * Reads {@code source}, folding with {@code reducer} the blocks of {@code plan} (one of {@code source}'s plans);
     * {@code folded} sees each block once folded, before the read returns it; {@code fallback} makes the result
     * without this source, for when the reads do not.
     */
    public FoldingSource(BlockSource source, BlockPlan plan, Reducer<A> reducer, Consumer<RowBlock> folded,
                         Supplier<A> fallback) {
        super(source);
        if (plan.totalRows() != source.nRows()) {
            throw new IllegalArgumentException("plan covers " + plan.totalRows() + " rows but " + source.describe()
                    + " has " + source.nRows());
        }
        this.ride = new Ride<>(plan, reducer, folded, fallback);
    }

    /** The reducer's result: from the reads when they covered the plan, else from the fallback, run now. */
    public A result() {
        return ride.result();
    }

    @Override
    public RowReader open() {
        RowReader reader = delegate().open();
        return RowReader.over(reader, (blockIndex, from, to) -> {
            RowBlock block = reader.read(blockIndex, from, to);
            ride.read(blockIndex, from, to, block);
            return block;
        });
    }

    /** None: a cache above this source would hand on blocks its reads never saw (a cache below it serves it). */
    @Override
    public Object cacheKey() {
        return null;
    }

    @Override
    public String describe() {
        return delegate().describe();
    }

    /** What the reads have folded so far, and the result once made. */
    private static final class Ride<A> {
        private static final byte FOLDING = 1;
        private static final byte FOLDED = 2;

        private final BlockPlan plan;
        private final Reducer<A> reducer;
        private final Consumer<RowBlock> folded;
        private Supplier<A> fallback;
        /** Each block's partial from its read until the blocks before it are merged; null once merged or not read. */
        private final Object[] waiting;
        /** Per block: 0 unread, {@link #FOLDING} while its first read folds it, {@link #FOLDED} after. */
        private final byte[] state;
        private int next;
        private A merged;
        private volatile boolean done;
        private A result;

        Ride(BlockPlan plan, Reducer<A> reducer, Consumer<RowBlock> folded, Supplier<A> fallback) {
            this.plan = plan;
            this.reducer = reducer;
            this.folded = folded;
            this.fallback = fallback;
            this.waiting = new Object[plan.size()];
            this.state = new byte[plan.size()];
            this.merged = reducer.identity();
            this.done = plan.size() == 0 && finish();
        }

        private boolean finish() {
            result = merged;
            merged = null;
            fallback = null;
            return true;
        }

        void read(int blockIndex, long from, long to, RowBlock block) {
            if (done) {
                return;
            }
            boolean inPlan = blockIndex >= 0 && blockIndex < plan.size() && plan.rowStart(blockIndex) == from
                    && plan.rowEnd(blockIndex) == to;
            if (!inPlan) {
                result();           // rows the folds will not cover: whatever reads them needs the result first
                return;
            }
            synchronized (this) {
                if (done || state[blockIndex] == FOLDED) {
                    return;
                }
                if (state[blockIndex] == FOLDING) {
                    // a second pass reads the block while its first read still folds it: what the first read
                    // hands on after folding ({@code folded}) may not be there yet, so make the result now
                    inPlan = false;
                } else {
                    state[blockIndex] = FOLDING;
                }
            }
            if (!inPlan) {
                result();
                return;
            }
            A partial = reducer.fold(block);
            folded.accept(block);
            synchronized (this) {
                if (done) {
                    return;
                }
                waiting[blockIndex] = partial;
                state[blockIndex] = FOLDED;
                while (next < waiting.length && waiting[next] != null) {
                    @SuppressWarnings("unchecked")
                    A p = (A) waiting[next];
                    waiting[next++] = null;
                    merged = reducer.merge(merged, p);
                }
                if (next == waiting.length) {
                    done = finish();
                }
            }
        }

        synchronized A result() {
            if (!done) {
                A made = fallback.get();
                merged = made;
                java.util.Arrays.fill(waiting, null);
                done = finish();
            }
            return result;
        }
    }
}
