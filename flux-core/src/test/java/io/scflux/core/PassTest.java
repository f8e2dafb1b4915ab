/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Selection;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Matrices;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pass over a source: named by the step nearest it in the subscriber's context, known to a source opened under the
 * one read (here a watching source, as a progress bar is), which is told of every block of the pass's own plan, in
 * order, from however many threads.
 */
class PassTest {

    private static final CsrMatrix X = Matrices.random(300, 40, 0.3, 1);
    private static final Streaming STREAMING =
            Streaming.DEFAULT.withTarget(BlockSize.TINY.target()).withThreads(4);

    /** X, noting each pass that opens it and watching its reads. */
    private static final class Watched extends ForwardingSource {
        final List<String> names = new ArrayList<>();
        final List<long[]> reads = new ArrayList<>();

        Watched() {
            super(X);
        }

        @Override
        public RowReader open() {
            names.add("no pass");
            return super.open();
        }

        @Override
        public RowReader open(Pass pass) {
            names.add(String.valueOf(pass.name()));
            pass.watch((p, blocks, rows) -> reads.add(new long[] {blocks, rows, p.blocks(), p.rows()}));
            return super.open();
        }
    }

    private static final Reducer<long[]> ROWS = new Reducer<>() {
        @Override
        public long[] identity() {
            return new long[1];
        }

        @Override
        public long[] fold(RowBlock block) {
            return new long[] {block.nRows()};
        }

        @Override
        public long[] merge(long[] earlier, long[] later) {
            return new long[] {earlier[0] + later[0]};
        }
    };

    @Test
    void theStepNearestAPassNamesIt() {
        Watched x = new Watched();
        STREAMING
                .reduce(x, ROWS)
                .contextWrite(Pass.named("qc"))
                .contextWrite(Pass.named("pipeline"))
                .block();
        STREAMING.blocks(x).contextWrite(Pass.named("write")).blockLast();
        STREAMING.buffers(x).doOnNext(BlockBuffer::release).blockLast();
        assertEquals(List.of("qc", "write", "null"), x.names, "the last pass is unnamed");
        x.open().close();
        assertEquals("no pass", x.names.get(3), "opened outside a pass");
    }

    @Test
    void aWatcherSeesEveryBlockOfThePassInOrder() {
        Watched x = new Watched();
        int blocks = X.plan(STREAMING.target()).size();
        assertTrue(blocks > 4, "several blocks per thread: " + blocks);
        STREAMING.reduce(x, ROWS).block();
        assertEquals(blocks, x.reads.size());
        for (int i = 0; i < blocks; i++) {
            long[] r = x.reads.get(i);
            assertEquals(i + 1, r[0], "told of block counts in order");
            assertTrue(i == 0 || r[1] > x.reads.get(i - 1)[1], "rows grow: " + Arrays.toString(r));
            assertEquals(blocks, r[2]);
            assertEquals(X.nRows(), r[3]);
        }
        assertEquals(X.nRows(), x.reads.get(blocks - 1)[1], "every row read");
    }

    /** Under a selection of rows, a pass is the selection's: its blocks and rows, not X's. */
    @Test
    void aSourceUnderAViewWatchesTheViewsPass() {
        Watched x = new Watched();
        BlockSource firstHalf =
                AnnData.of(x).subset(Selection.range(0, 150), Selection.all()).x();
        int blocks = firstHalf.plan(STREAMING.target()).size();
        assertEquals(
                150,
                STREAMING
                        .reduce(firstHalf, ROWS)
                        .contextWrite(Pass.named("hvg"))
                        .block()[0]);
        assertEquals(List.of("hvg"), x.names);
        long[] last = x.reads.get(x.reads.size() - 1);
        assertEquals(
                List.of((long) blocks, 150L, (long) blocks, 150L),
                Arrays.stream(last).boxed().toList());
    }
}
