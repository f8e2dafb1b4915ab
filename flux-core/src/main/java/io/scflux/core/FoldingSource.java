/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * A source whose reads also fold a {@link Reducer}: the first pass that reads every block of a plan (a write of X,
 * another step's pass) makes the reducer's result on the way, so a step whose results can ride along (QC's columns
 * beside normalized X) costs no pass of its own. Blocks come back as read; the partials of the blocks are merged in
 * block order, so the result depends on the plan only, never on the threads.
 *
 * <p>Subscribing to the {@link #result} before every block was read runs {@code fallback} (the reducer's own pass)
 * then, which is logged; so does reading rows outside the plan, before the read returns (the rows' folds, which the
 * reads of the blocks would have made, are needed first): reads and result are then right whatever comes first. The
 * folds happen in this JVM: a step that runs its passes elsewhere (on Spark) does not make one.
 *
 * @param <A> the reducer's partial
 */
public final class FoldingSource<A> extends ForwardingSource {

    private static final Logger LOG = LoggerFactory.getLogger(FoldingSource.class);

    private final Ride<A> ride;

    /**
     * Reads {@code source}, folding with {@code reducer} the blocks of {@code plan} (one of {@code source}'s plans);
     * {@code folded} sees each block once folded, before the read returns it; {@code fallback} makes the result
     * without this source, on subscription, for when the reads do not.
     */
    public FoldingSource(
            BlockSource source, BlockPlan plan, Reducer<A> reducer, Consumer<RowBlock> folded, Mono<A> fallback) {
        super(source);
        if (plan.totalRows() != source.nRows()) {
            throw new IllegalArgumentException(
                    "plan covers " + plan.totalRows() + " rows but " + source.describe() + " has " + source.nRows());
        }
        this.ride = new Ride<>(plan, reducer, folded, Mono.defer(() -> {
            LOG.info(
                    "the fold over {} was asked for its result before the reads covered it: folding it in a pass "
                            + "of its own",
                    source.describe());
            return fallback;
        }));
    }

    /**
     * The reducer's result: from the reads when they covered the plan, else from the fallback, run on subscription
     * (once it has made the result, the reads only read).
     *
     * @return a Mono of the result, cold: it asks again at each subscription
     */
    public Mono<A> result() {
        return ride.result();
    }

    @Override
    public RowReader open() {
        return folding(delegate().open());
    }

    @Override
    public RowReader open(Pass pass) {
        return folding(delegate().open(pass));
    }

    /** {@code reader}, the delegate's, its blocks folded as they are read. */
    private RowReader folding(RowReader reader) {
        return RowReader.over(reader, (blockIndex, from, to) -> {
            RowBlock block = reader.read(blockIndex, from, to);
            ride.read(blockIndex, from, to, block);
            return block;
        });
    }

    /** None: a cache above this source would hand on blocks its reads never saw (a cache below it serves it). */
    @Override
    public @Nullable Object cacheKey() {
        return null;
    }

    @Override
    public String describe() {
        return delegate().describe();
    }

    /** What the reads have folded so far, and the result once made. */
    private static final class Ride<A> {
        /** What a read does with its block: folds it, finds it folded already, or needs the result first. */
        private enum Claim {
            FOLD,
            SKIP,
            SETTLE
        }

        private static final byte FOLDING = 1;
        private static final byte FOLDED = 2;

        private final BlockPlan plan;
        private final Reducer<A> reducer;
        private final Consumer<RowBlock> folded;
        private final Mono<A> fallback;
        /** Each block's partial from its read until the blocks before it are merged; null once merged or not read. */
        private final Object[] waiting;
        /** Per block: 0 unread, {@link #FOLDING} while its first read folds it, {@link #FOLDED} after. */
        private final byte[] state;
        /** The first block not merged yet. */
        private int next;

        private A merged;
        private volatile boolean done;

        Ride(BlockPlan plan, Reducer<A> reducer, Consumer<RowBlock> folded, Mono<A> fallback) {
            this.plan = plan;
            this.reducer = reducer;
            this.folded = folded;
            this.fallback = fallback;
            this.waiting = new Object[plan.size()];
            this.state = new byte[plan.size()];
            this.merged = reducer.identity();
            this.done = plan.size() == 0;
        }

        void read(int blockIndex, long from, long to, RowBlock block) {
            if (done) {
                return;
            }
            switch (claim(blockIndex, from, to)) {
                case FOLD -> fold(blockIndex, block);
                // rows the folds will not cover, or a block a first read is still folding (what it hands on after
                // folding, {@code folded}, may not be there yet): whatever reads them needs the result first
                case SETTLE -> settleHere();
                case SKIP -> {}
            }
        }

        private synchronized Claim claim(int blockIndex, long from, long to) {
            boolean inPlan = blockIndex >= 0
                    && blockIndex < plan.size()
                    && plan.rowStart(blockIndex) == from
                    && plan.rowEnd(blockIndex) == to;
            if (!inPlan || state[blockIndex] == FOLDING) {
                return done ? Claim.SKIP : Claim.SETTLE;
            }
            if (done || state[blockIndex] == FOLDED) {
                return Claim.SKIP;
            }
            state[blockIndex] = FOLDING;
            return Claim.FOLD;
        }

        /** Folds block {@code blockIndex} here, then merges every partial that its turn in block order has come to. */
        private void fold(int blockIndex, RowBlock block) {
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
                done = next == waiting.length;
            }
        }

        Mono<A> result() {
            return Mono.defer(() -> {
                synchronized (this) {
                    if (done) {
                        return Mono.just(merged);
                    }
                }
                return fallback.map(this::settled);
            });
        }

        /** {@code all}, the fallback's result, kept unless a result was made meanwhile (the reads', or another's). */
        private synchronized A settled(A all) {
            if (!done) {
                merged = all;
                java.util.Arrays.fill(waiting, null);
                done = true;
            }
            return merged;
        }

        /**
         * The result made before a read returns its block, waited for on the reading thread: the read is inside a
         * pass, which cannot hand its block on before the fold of its rows was made.
         */
        private void settleHere() {
            try {
                result().toFuture().join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw e;
            }
        }
    }
}
