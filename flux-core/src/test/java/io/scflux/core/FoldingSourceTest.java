/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Logs;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.Threads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * A reducer rides along the reads of a {@link FoldingSource}: a full pass over its plan makes the result (blocks'
 * partials merged in block order, the same bits whatever the threads); anything else runs the fallback, once.
 */
class FoldingSourceTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    /** Float sums, one partial per block (blocks take turns at random): the merge order shows in the bits. */
    private static final Reducer<float[]> SUM = ReducerTest.FLOAT_SUM;

    private static final CsrMatrix MATRIX = Matrices.random(300, 40, 0.3, 11);

    /** The sum the rides make, worked out here: each block of {@code plan} summed, the sums added in block order. */
    private static float expected(BlockPlan plan) {
        float total = 0;
        try (RowReader reader = MATRIX.open()) {
            for (int b = 0; b < plan.size(); b++) {
                RowBlock block = reader.read(b, plan.rowStart(b), plan.rowEnd(b));
                total += SUM.fold(block)[0];
            }
        }
        return total;
    }

    /** Runs {@code action}, which asks for the result before the reads covered the plan: the fold says so, once. */
    private static void fallsBack(Runnable action) {
        List<String> logged = Logs.during(action);
        assertEquals(1, logged.size(), logged.toString());
        assertTrue(
                logged.get(0)
                        .contains("was asked for its result before the reads covered it: folding it in a "
                                + "pass of its own"),
                logged.get(0));
    }

    private static Mono<float[]> noFallback() {
        return Mono.fromCallable(() -> fail("the fallback ran"));
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void aPassOverThePlanMakesTheResultOnItsWay(Threads t) {
        CountingSource counts = CountingSource.of(MATRIX);
        BlockPlan plan = counts.plan(BlockSize.TINY.target());
        AtomicIntegerArray folded = new AtomicIntegerArray(plan.size());
        FoldingSource<float[]> source =
                new FoldingSource<>(counts, plan, SUM, b -> folded.incrementAndGet(b.blockIndex()), noFallback());

        StepVerifier.create(source.blocks(plan, t.execution())
                        .map(b -> (long) b.nnz())
                        .reduce(0L, Long::sum))
                .expectNext(MATRIX.nnz())
                .verifyComplete();

        assertArrayEquals(new float[] {expected(plan)}, source.result().block(WAIT));
        assertEquals(1, counts.opened.get());
        for (int b = 0; b < plan.size(); b++) {
            assertEquals(1, folded.get(b), "block " + b + " handed on once");
        }
        assertEquals(
                Float.floatToIntBits(expected(plan)),
                Float.floatToIntBits(source.result().block(WAIT)[0]));
    }

    /** A source over {@link #MATRIX} folding {@link #SUM} on {@code plan}, counting its fallbacks and handed blocks. */
    private record Ride(BlockPlan plan, FoldingSource<float[]> source, AtomicInteger fallbacks, AtomicInteger folded) {
        static Ride on(BlockSize size) {
            CountingSource counts = CountingSource.of(MATRIX);
            BlockPlan plan = counts.plan(size.target());
            AtomicInteger fallbacks = new AtomicInteger();
            AtomicInteger folded = new AtomicInteger();
            return new Ride(
                    plan,
                    new FoldingSource<>(counts, plan, SUM, b -> folded.incrementAndGet(), Mono.fromCallable(() ->
                            new float[] {fallbacks.incrementAndGet() * 100f})),
                    fallbacks,
                    folded);
        }
    }

    @Test
    void theResultBeforeAnyReadComesFromTheFallbackOnceAndTheReadsThenOnlyRead() {
        Ride r = Ride.on(BlockSize.TINY);
        fallsBack(() -> assertEquals(100f, r.source().result().block(WAIT)[0]));
        r.source().blocks(r.plan(), Threads.TWO.execution()).blockLast(WAIT);
        assertEquals(100f, r.source().result().block(WAIT)[0]);
        assertEquals(1, r.fallbacks().get());
        assertEquals(0, r.folded().get());
    }

    @Test
    void readingRowsOutsideThePlanRunsTheFallbackBeforeTheBlockIsHandedOn() {
        Ride r = Ride.on(BlockSize.TINY);
        BlockPlan other = MATRIX.plan(BlockSize.ONE_ROW.target());
        fallsBack(() -> StepVerifier.create(
                        r.source().blocks(other, Threads.ONE.execution()).take(1))
                .assertNext(b -> assertEquals(1, r.fallbacks().get(), "the fallback ran before the first block"))
                .verifyComplete());
        r.source().blocks(r.plan(), Threads.TWO.execution()).blockLast(WAIT);
        assertEquals(100f, r.source().result().block(WAIT)[0]);
        assertEquals(1, r.fallbacks().get());
    }

    @Test
    void aBlockReadAgainIsFoldedOnce() {
        CountingSource counts = CountingSource.of(MATRIX);
        BlockPlan plan = counts.plan(BlockSize.TINY.target());
        AtomicInteger folded = new AtomicInteger();
        FoldingSource<float[]> source =
                new FoldingSource<>(counts, plan, SUM, b -> folded.incrementAndGet(), noFallback());
        try (RowReader reader = source.open()) {
            for (int b : new int[] {2, 0, 2, 1, 0}) {
                reader.read(b, plan.rowStart(b), plan.rowEnd(b));
            }
        }
        source.blocks(plan, Threads.EIGHT.execution()).blockLast(WAIT);
        assertEquals(plan.size(), folded.get());
        assertEquals(
                Float.floatToIntBits(expected(plan)),
                Float.floatToIntBits(source.result().block(WAIT)[0]));
    }

    @Test
    void aCancelledPassLeavesTheResultToTheFallback() {
        CountingSource counts = CountingSource.of(MATRIX);
        BlockPlan plan = counts.plan(BlockSize.TINY.target());
        FoldingSource<float[]> source =
                new FoldingSource<>(counts, plan, SUM, b -> {}, SUM.reduce(counts, plan, Execution.sequential()));
        StepVerifier.create(source.blocks(plan, Threads.TWO.execution()), 0)
                .thenRequest(3)
                .expectNextCount(3)
                .thenCancel()
                .verify(WAIT);
        float segmented = SUM.reduce(counts, plan, Execution.sequential()).block(WAIT)[0];
        fallsBack(() -> assertEquals(
                Float.floatToIntBits(segmented),
                Float.floatToIntBits(source.result().block(WAIT)[0])));
    }

    @Test
    void aFailedFallbackIsRunAgainAtTheNextAsk() {
        CountingSource counts = CountingSource.of(MATRIX);
        BlockPlan plan = counts.plan(BlockSize.TINY.target());
        AtomicInteger calls = new AtomicInteger();
        FoldingSource<float[]> source = new FoldingSource<>(counts, plan, SUM, b -> {}, Mono.fromCallable(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("first try fails");
            }
            return new float[] {7};
        }));
        fallsBack(() ->
                assertThrows(IllegalStateException.class, () -> source.result().block(WAIT)));
        fallsBack(() -> assertEquals(7f, source.result().block(WAIT)[0]));
    }

    @Test
    void anEmptySourceHasTheIdentity() {
        CsrMatrix empty = CsrMatrix.builder(5).build();
        FoldingSource<float[]> source = new FoldingSource<>(empty, empty.plan(), SUM, b -> {}, noFallback());
        assertArrayEquals(new float[1], source.result().block(WAIT));
    }

    @Test
    void aPlanOfAnotherSizeIsRefused() {
        CsrMatrix small = Matrices.random(3, 4, 0.5, 1);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new FoldingSource<>(MATRIX, small.plan(), SUM, b -> {}, noFallback()));
        assertEquals(true, e.getMessage().contains("plan covers 3 rows"), e.getMessage());
    }
}
