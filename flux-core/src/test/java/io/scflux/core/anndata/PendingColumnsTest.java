/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Pending columns are put by {@link AnnData#complete} only: looking at obs or var runs nothing. */
class PendingColumnsTest {

    private static final CsrMatrix X = CsrMatrix.builder(2)
            .addRow(new int[] {0}, new float[] {1})
            .addRow(new int[] {1}, new float[] {2})
            .addRow(new int[] {}, new float[] {})
            .build();

    /** A container of 3 cells x 2 genes whose pending columns are obs "n" = 10, 11, 12 and var "g" = 20, 21. */
    private static AnnData pending(AtomicInteger runs) {
        AnnData data = AnnData.of(X);
        data.obs().put("kept", ArrayColumn.of(new int[] {7, 8, 9}));
        Frame obs = data.obs().indexOnly();
        Frame var = data.var().indexOnly();
        return data.setPending(new PendingColumns(
                Mono.fromCallable(() -> {
                    runs.incrementAndGet();
                    AnnData made = new AnnData(null, obs.copy(), var.copy());
                    made.obs().put("n", ArrayColumn.of(new int[] {10, 11, 12}));
                    made.var().put("g", ArrayColumn.of(new int[] {20, 21}));
                    return made;
                }),
                AnnData::obs,
                AnnData::var));
    }

    @Test
    void lookingAtObsRunsNothingAndCompletingPutsTheColumnsInACopy() {
        AtomicInteger runs = new AtomicInteger();
        AnnData data = pending(runs);
        assertFalse(data.obs().has("n"));
        assertEquals(List.of("kept"), List.copyOf(data.copy().obs().columns().keySet()));
        Mono<AnnData> completing = data.complete();
        assertEquals(0, runs.get(), "nothing runs before subscription");

        AnnData done = completing.block();
        assertEquals(1, runs.get());
        assertEquals(List.of("kept", "n"), List.copyOf(done.obs().columns().keySet()));
        assertEquals(12, done.obs().column("n").get(2));
        assertEquals(21, done.var().column("g").get(1));
        assertNull(done.pending());
        assertSame(done, done.complete().block(), "nothing left to put");
        assertFalse(data.obs().has("n"), "the container completed is left as it was");
        assertSame(data.pending(), data.copy().pending(), "a copy keeps them pending");
    }

    @Test
    void aSubsetKeepsItsRowsAndGenesOfThem() {
        AnnData data = pending(new AtomicInteger());
        AnnData subset = data.subset(Selection.of(2, 0), Selection.all()).subset(Selection.of(1), Selection.of(1));
        AnnData done = subset.complete().block();
        assertEquals(List.of(10), List.of(done.obs().column("n").get(0)));
        assertEquals(List.of(21), List.of(done.var().column("g").get(0)));
    }

    @Test
    void aFailedCompletionFailsItsSubscriberAndRunsAgainAtTheNext() {
        AtomicInteger tries = new AtomicInteger();
        AnnData data = AnnData.of(X)
                .setPending(new PendingColumns(
                        Mono.defer(() -> tries.incrementAndGet() == 1
                                ? Mono.error(new IllegalStateException("pass failed"))
                                : Mono.just(new AnnData(null, Frame.ofRange(3), Frame.ofRange(2)))),
                        AnnData::obs,
                        AnnData::var));
        assertThrows(IllegalStateException.class, () -> data.complete().block());
        assertNull(data.complete().block().pending());
        assertEquals(2, tries.get());
    }
}
