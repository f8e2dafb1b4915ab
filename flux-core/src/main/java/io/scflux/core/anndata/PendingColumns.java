/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Columns of obs and var that a pass over X makes on its way and that are not in them yet: QC's, folded by the read
 * of normalized X that the write makes ({@code Preprocess}). Looking at obs or var runs nothing and shows only the
 * columns put so far; {@link AnnData#complete} puts these, and is what ends such a pass: the writer calls it after X
 * and before obs and var, a caller that wants the columns sooner calls it itself. When no read covered X yet, the
 * pass that makes them runs then, on subscription, as a pass of its own.
 *
 * <p>A selection of the container ({@link AnnData#subset}) keeps its columns pending, for its rows and genes.
 */
public final class PendingColumns {

    /** On subscription, the frames made: obs's columns, then var's. */
    private final Mono<Frame[]> columns;
    /** The rows of the columns made that the container holds, in its order; null for all. */
    private final int @Nullable [] rows;
    /** Likewise, the genes. */
    private final int @Nullable [] cols;

    /**
     * The columns that {@code made} makes: on subscription, something (a container without X, say) whose obs and
     * var frames, indexed as the container's own were when the pass was set up, hold the columns to put.
     *
     * @param made a cold Mono, subscribed at each completion
     * @param obs the frame of obs columns in what {@code made} emits
     * @param var the frame of var columns in it
     * @param <T> what {@code made} emits
     */
    public <T> PendingColumns(Mono<T> made, Function<? super T, Frame> obs, Function<? super T, Frame> var) {
        this(null, null, Objects.requireNonNull(made, "made").map(m -> new Frame[] {obs.apply(m), var.apply(m)}));
    }

    private PendingColumns(int @Nullable [] rows, int @Nullable [] cols, Mono<Frame[]> columns) {
        this.columns = columns;
        this.rows = rows;
        this.cols = cols;
    }

    /** These columns for rows {@code r} and genes {@code c} (null: all) of the container they are pending in. */
    PendingColumns take(int @Nullable [] r, int @Nullable [] c) {
        return new PendingColumns(compose(rows, r), compose(cols, c), columns);
    }

    private static int @Nullable [] compose(int @Nullable [] first, int @Nullable [] then) {
        if (then == null || first == null) {
            return then == null ? first : then;
        }
        int[] out = new int[then.length];
        for (int i = 0; i < then.length; i++) {
            out[i] = first[then[i]];
        }
        return out;
    }

    /** Makes the columns, then puts them into {@code into}'s obs and var (replacing any of the same name). */
    Mono<Void> putInto(Frame obs, Frame var) {
        return columns.doOnNext(made -> {
                    put(made[0], rows, obs);
                    put(made[1], cols, var);
                })
                .then();
    }

    private static void put(Frame made, int @Nullable [] taken, Frame into) {
        made.columns().forEach((name, column) -> into.put(name, taken == null ? column : column.take(taken)));
    }
}
