/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * One pass over a source: the reads of the blocks of a plan by one subscription in this JVM (every such pass goes
 * through {@link BlockSource#blocks}, {@link BlockSource#buffers} or {@link Reducer#reduce}; an {@link Engine} that
 * reads elsewhere makes none). A step names the passes it makes with {@link #named} on its {@code Mono} (Reactor's
 * context, read when a pass starts), for what they compute: {@code qc}, {@code hvg}, {@code write}. The pass is handed
 * to the source read as it is opened ({@link BlockSource#open(Pass)}), which opens the sources it reads with it: a
 * source under the one read (X under its views and caches) learns so which pass opens it, and may {@link #watch} it:
 * a progress bar follows the passes over X this way, in the blocks and rows of each pass's own plan.
 */
public final class Pass {

    private static final String NAME = Pass.class.getName();

    /** Told of a pass's reads: after each block, from the thread that read it, one call at a time, in order. */
    @FunctionalInterface
    public interface Watcher {
        void read(Pass pass, int blocksRead, long rowsRead);
    }

    private final @Nullable String name;
    private final int blocks;
    private final long rows;
    private final Set<Watcher> watchers = new CopyOnWriteArraySet<>();
    private int blocksRead;
    private long rowsRead;

    private Pass(@Nullable String name, BlockPlan plan) {
        this.name = name;
        this.blocks = plan.size();
        this.rows = plan.totalRows();
    }

    /**
     * Names the passes that a {@code Mono} or {@code Flux} makes when subscribed, {@code contextWrite(Pass.named("qc"))},
     * unless a step nearer them names them.
     */
    public static Function<Context, Context> named(String name) {
        return context -> context.put(NAME, name);
    }

    /** What the pass computes ({@link #named}), or null when no step named it. */
    public @Nullable String name() {
        return name;
    }

    /** The blocks of the pass's plan. */
    public int blocks() {
        return blocks;
    }

    /** The rows of the pass's plan. */
    public long rows() {
        return rows;
    }

    /**
     * Tells {@code watcher} of the pass's reads from now on (once, however often it is given): from within
     * {@link BlockSource#open(Pass)}, before the first read.
     *
     * @param watcher what is told of each block read
     */
    public void watch(Watcher watcher) {
        watchers.add(watcher);
    }

    /**
     * A reader for a pass over {@code plan} named in {@code context}, opened by {@code open} (a source's
     * {@code open(Pass)}), and counting its reads for the watchers, when any watch it.
     */
    static RowReader open(Function<Pass, RowReader> open, BlockPlan plan, ContextView context) {
        Pass pass = new Pass(context.getOrDefault(NAME, null), plan);
        RowReader reader = open.apply(pass);
        return pass.watchers.isEmpty() ? reader : pass.counting(reader);
    }

    private RowReader counting(RowReader reader) {
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                RowBlock block = reader.read(blockIndex, from, to);
                counted(to - from);
                return block;
            }

            @Override
            public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
                reader.readInto(blockIndex, from, to, into);
                counted(to - from);
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    /** Counts a block of {@code n} rows read and tells the watchers, under the lock so that they see counts in order. */
    private synchronized void counted(long n) {
        blocksRead++;
        rowsRead += n;
        for (Watcher w : watchers) {
            w.read(this, blocksRead, rowsRead);
        }
    }
}
