/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import java.util.Objects;
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

    private final Mono<AnnData> columns;
    /** The rows of the columns made that the container holds, in its order; null for all. */
    private final int[] rows;
    /** Likewise, the genes. */
    private final int[] cols;

    /**
     * The columns that {@code columns} makes: on subscription, a container without X whose obs and var, indexed as
     * the container's own were when the pass was set up, hold the columns to put.
     *
     * @param columns a cold Mono, subscribed at each completion
     */
    public PendingColumns(Mono<AnnData> columns) {
        this(Objects.requireNonNull(columns, "columns"), null, null);
    }

    private PendingColumns(Mono<AnnData> columns, int[] rows, int[] cols) {
        this.columns = columns;
        this.rows = rows;
        this.cols = cols;
    }

    /** These columns for rows {@code r} and genes {@code c} (null: all) of the container they are pending in. */
    PendingColumns take(int[] r, int[] c) {
        return new PendingColumns(columns, compose(rows, r), compose(cols, c));
    }

    private static int[] compose(int[] first, int[] then) {
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
    Mono<Void> putInto(AnnData into) {
        return columns.doOnNext(made -> {
                    put(made.obs(), rows, into.obs());
                    put(made.var(), cols, into.var());
                })
                .then();
    }

    private static void put(Frame made, int[] taken, Frame into) {
        made.columns().forEach((name, column) -> into.put(name, taken == null ? column : column.take(taken)));
    }
}
