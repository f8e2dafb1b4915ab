/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Threads;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Segments folded and merged in block order give the same bits whatever the threads, and fail the Reactor way. */
@Tag("slow")
class ReducerTest {

    /** Float sums of values spanning many magnitudes: the order of additions shows in the last bits. */
    static final Reducer<float[]> FLOAT_SUM = new Reducer<>() {
        @Override
        public float[] identity() {
            return new float[1];
        }

        @Override
        public float[] fold(RowBlock block) {
            float s = 0;
            for (float v : block.values()) {
                s += v;
            }
            try {
                Thread.sleep((block.blockIndex() * 7L) % 3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new float[] {s};
        }

        @Override
        public float[] merge(float[] earlier, float[] later) {
            earlier[0] += later[0];
            return earlier;
        }
    };

    /** The same sums, folding each block straight into its segment's partial. */
    private static final Reducer<float[]> FLOAT_SUM_INTO = new Reducer<>() {
        @Override
        public float[] identity() {
            return new float[1];
        }

        @Override
        public float[] fold(RowBlock block) {
            return foldInto(identity(), block);
        }

        @Override
        public float[] foldInto(float[] acc, RowBlock block) {
            for (float v : block.values()) {
                acc[0] += v;
            }
            return acc;
        }

        @Override
        public float[] merge(float[] earlier, float[] later) {
            earlier[0] += later[0];
            return earlier;
        }
    };

    private static CsrMatrix wideRange() {
        SplittableRandom rnd = new SplittableRandom(5);
        CsrMatrix.Builder b = CsrMatrix.builder(30);
        for (int r = 0; r < 400; r++) {
            int[] idx = new int[30];
            float[] val = new float[30];
            for (int c = 0; c < 30; c++) {
                idx[c] = c;
                val[c] = (float) Math.scalb(rnd.nextDouble(), rnd.nextInt(-20, 20));
            }
            b.addRow(idx, val);
        }
        return b.build();
    }

    @ParameterizedTest
    @EnumSource(BlockSize.class)
    void sameBitsWithAnyThreadCount(BlockSize size) {
        CsrMatrix m = wideRange();
        BlockPlan plan = m.plan(size.target());
        float reference =
                FLOAT_SUM.reduce(m.blocks(plan), Execution.sequential()).block()[0];
        for (Threads t : Threads.values()) {
            for (int run = 0; run < 3; run++) {
                float got = FLOAT_SUM.reduce(m.blocks(plan, t.execution()), t.execution())
                        .block()[0];
                assertEquals(Float.floatToRawIntBits(reference), Float.floatToRawIntBits(got), t + " run " + run);
                float read = FLOAT_SUM.reduce(m, plan, t.execution()).block()[0];
                assertEquals(
                        Float.floatToRawIntBits(reference),
                        Float.floatToRawIntBits(read),
                        t + " run " + run + ", segments read by their workers");
            }
        }
    }

    /**
     * The documented order, written out here: each segment of {@link Reducer#SEGMENT_BLOCKS} blocks folded into one
     * partial (by default a block's own sum added to it; with foldInto each value added to it), each run's segment
     * partials added in order, then the runs' partials in order.
     */
    @ParameterizedTest
    @EnumSource(Threads.class)
    void foldsSegmentsThenMergesThemInOrder(Threads t) {
        CsrMatrix m = wideRange();
        BlockPlan plan = m.plan(BlockSize.ONE_ROW.target());
        int run = Reducer.RUN_SEGMENTS * Reducer.SEGMENT_BLOCKS;
        assertTrue(plan.size() > run, "more than one run");
        float perBlock = 0;
        float perValue = 0;
        float runOfBlocks = 0;
        float runOfValues = 0;
        for (int from = 0; from < plan.size(); from += Reducer.SEGMENT_BLOCKS) {
            float segmentOfBlocks = 0;
            float segmentOfValues = 0;
            for (int b = from; b < Math.min(plan.size(), from + Reducer.SEGMENT_BLOCKS); b++) {
                float block = 0;
                for (float v : m.blocks(plan).elementAt(b).block().values()) {
                    block += v;
                    segmentOfValues += v;
                }
                segmentOfBlocks += block;
            }
            runOfBlocks += segmentOfBlocks;
            runOfValues += segmentOfValues;
            if ((from + Reducer.SEGMENT_BLOCKS) % run == 0 || from + Reducer.SEGMENT_BLOCKS >= plan.size()) {
                perBlock += runOfBlocks;
                perValue += runOfValues;
                runOfBlocks = 0;
                runOfValues = 0;
            }
        }
        assertNotEquals(Float.floatToRawIntBits(perBlock), Float.floatToRawIntBits(perValue));
        float gotBlocks =
                FLOAT_SUM.reduce(m.blocks(plan, t.execution()), t.execution()).block()[0];
        float gotValues = FLOAT_SUM_INTO.reduce(m.blocks(plan, t.execution()), t.execution())
                .block()[0];
        assertEquals(Float.floatToRawIntBits(perBlock), Float.floatToRawIntBits(gotBlocks));
        assertEquals(Float.floatToRawIntBits(perValue), Float.floatToRawIntBits(gotValues));
        assertEquals(
                Float.floatToRawIntBits(perBlock),
                Float.floatToRawIntBits(FLOAT_SUM.reduce(m, plan, t.execution()).block()[0]),
                "read by the workers");
        assertEquals(
                Float.floatToRawIntBits(perValue),
                Float.floatToRawIntBits(
                        FLOAT_SUM_INTO.reduce(m, plan, t.execution()).block()[0]),
                "read by the workers");
    }

    /**
     * A reducer with its own segment length that gathers a segment's values and adds them only in
     * {@link Reducer#segmentDone}, as the Gram tiles do: the order written out for its segments, both forms, any
     * threads, and a Spark-like run by run fold.
     */
    @ParameterizedTest
    @EnumSource(Threads.class)
    void aReducersOwnSegmentsAreFoldedGatheredAndMergedInOrder(Threads t) {
        int size = 5;
        Reducer<float[][]> gathering = new Reducer<>() {
            @Override
            public int segmentBlocks() {
                return size;
            }

            @Override
            public float[][] identity() {
                return new float[][] {new float[1], new float[0]};
            }

            @Override
            public float[][] fold(RowBlock block) {
                return foldInto(identity(), block);
            }

            @Override
            public float[][] foldInto(float[][] acc, RowBlock block) {
                float[] kept = java.util.Arrays.copyOf(acc[1], acc[1].length + block.nnz());
                System.arraycopy(block.values(), 0, kept, acc[1].length, block.nnz());
                acc[1] = kept;
                return acc;
            }

            @Override
            public float[][] segmentDone(float[][] segment) {
                for (float v : segment[1]) {
                    segment[0][0] += v;
                }
                segment[1] = new float[0];
                return segment;
            }

            @Override
            public float[][] merge(float[][] earlier, float[][] later) {
                assertEquals(0, later[1].length, "merged only once added");
                earlier[0][0] += later[0][0];
                return earlier;
            }
        };
        CsrMatrix m = wideRange();
        BlockPlan plan = m.plan(BlockSize.ONE_ROW.target());
        int run = Reducer.RUN_SEGMENTS * size;
        assertTrue(plan.size() > run, "more than one run");
        float expected = 0;
        float runSum = 0;
        for (int from = 0; from < plan.size(); from += size) {
            float segment = 0;
            for (int b = from; b < Math.min(plan.size(), from + size); b++) {
                for (float v : m.blocks(plan).elementAt(b).block().values()) {
                    segment += v;
                }
            }
            runSum += segment;
            if ((from + size) % run == 0 || from + size >= plan.size()) {
                expected += runSum;
                runSum = 0;
            }
        }
        assertEquals(
                Float.floatToRawIntBits(expected),
                Float.floatToRawIntBits(gathering.reduce(m.blocks(plan, t.execution()), t.execution())
                        .block()[0][0]));
        assertEquals(
                Float.floatToRawIntBits(expected),
                Float.floatToRawIntBits(gathering.reduce(m, plan, t.execution()).block()[0][0]),
                "read by the workers");
        float[][] byRuns = gathering.identity();
        try (RowReader reader = m.open()) {
            for (int[] r : Reducer.runs(plan.size(), size)) {
                byRuns = gathering.merge(byRuns, gathering.foldRun(reader, plan, r[0], r[1]));
            }
        }
        assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(byRuns[0][0]), "run by run");
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void planChangesBitsThreadsDoNot(Threads t) {
        CsrMatrix m = wideRange();
        float oneBlock = FLOAT_SUM.reduce(m.blocks(m.plan(BlockSize.DEFAULT.target())), t.execution())
                .block()[0];
        float rowBlocks = FLOAT_SUM.reduce(m.blocks(m.plan(BlockSize.ONE_ROW.target())), t.execution())
                .block()[0];
        // Different plans fold in a different order: that is why the plan, never the threads, fixes the result.
        assertNotEquals(Float.floatToRawIntBits(oneBlock), Float.floatToRawIntBits(rowBlocks));
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void emptyInputGivesIdentityAndErrorsPropagate(Threads t) {
        StepVerifier.create(FLOAT_SUM.reduce(Flux.empty(), t.execution()))
                .assertNext(a -> assertEquals(0f, a[0]))
                .verifyComplete();
        Flux<RowBlock> failing = Flux.concat(
                Flux.just(RowBlock.empty(0, 0, 1, 3)), Mono.error(new IllegalStateException("upstream failed")));
        StepVerifier.create(FLOAT_SUM.reduce(failing, t.execution()))
                .expectErrorMessage("upstream failed")
                .verify();
    }
    /**
     * Read by the workers, a segment's next block is read when its fold is done with the previous one: with folds much
     * slower than reads, at most one block per worker is read and not yet folded, where the flux form, fed by one
     * reader, queues up to a segment's blocks per worker.
     */
    @ParameterizedTest
    @EnumSource(Threads.class)
    void workersReadingTheirSegmentsHoldAboutOneBlockEach(Threads t) {
        CsrMatrix m = wideRange();
        BlockPlan plan = m.plan(BlockSize.ONE_ROW.target());
        CountingSource source = CountingSource.of(m);
        AtomicInteger folded = new AtomicInteger();
        AtomicInteger held = new AtomicInteger();
        Reducer<float[]> slow = slowed(
                200_000,
                () -> held.accumulateAndGet(source.reads.get() - folded.get(), Math::max),
                folded::incrementAndGet);
        slow.reduce(source, plan, t.execution()).block();
        assertEquals(plan.size(), folded.get());
        assertTrue(held.get() <= t.count(), held.get() + " blocks read and not folded with " + t);
        assertEquals(1, source.closed.get(), "the reader closed");
        if (t.count() > 1) {
            held.set(0);
            folded.set(0);
            source.reads.set(0);
            slow.reduce(source.blocks(plan, t.execution()), t.execution()).block();
            assertTrue(held.get() > t.count(), "the flux form queues blocks (" + held.get() + "): the check can fail");
        }
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void readByTheWorkersAFailedReadFailsTheResultAndClosesTheReader(Threads t) throws InterruptedException {
        CsrMatrix m = wideRange();
        BlockPlan plan = m.plan(BlockSize.ONE_ROW.target());
        CountingSource failing = CountingSource.failingAt(m, 40);
        StepVerifier.create(FLOAT_SUM.reduce(failing, plan, t.execution()))
                .expectErrorMessage("injected failure at block 40")
                .verify(Duration.ofSeconds(10));
        assertEquals(1, failing.opened.get());
        assertClosedOnceReadsInFlightAreDone(failing);
        BlockPlan tenRows = BlockPlan.uniform(10, 5, 30, BlockSize.DEFAULT.target());
        StepVerifier.create(FLOAT_SUM.reduce(m, tenRows, t.execution()))
                .expectErrorMessage("plan covers 10 rows but " + m.describe() + " has 400")
                .verify(Duration.ofSeconds(10));
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void readByTheWorkersACancelClosesTheReader(Threads t) throws InterruptedException {
        CsrMatrix m = wideRange();
        CountingSource source = CountingSource.of(m);
        CountDownLatch started = new CountDownLatch(1);
        Reducer<float[]> blocking = slowed(1_000_000, started::countDown, () -> {});
        StepVerifier.create(blocking.reduce(source, m.plan(BlockSize.ONE_ROW.target()), t.execution()))
                .then(() -> await(started))
                .thenCancel()
                .verify(Duration.ofSeconds(10));
        assertClosedOnceReadsInFlightAreDone(source);
        assertTrue(source.reads.get() < 400, source.reads.get() + " of 400 blocks read before the cancel stopped it");
    }

    /**
     * The reader is closed exactly once, by the close or by the last read in flight on another worker, whichever
     * comes last: after the error or cancel has reached the subscriber, possibly.
     */
    private static void assertClosedOnceReadsInFlightAreDone(CountingSource source) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (source.closed.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, source.closed.get(), "closed once the reads in flight are done");
    }

    /** {@code FLOAT_SUM_INTO} with each fold taking {@code nanos} more, between {@code before} and {@code after}. */
    private static Reducer<float[]> slowed(long nanos, Runnable before, Runnable after) {
        return new Reducer<>() {
            @Override
            public float[] identity() {
                return FLOAT_SUM_INTO.identity();
            }

            @Override
            public float[] fold(RowBlock block) {
                before.run();
                LockSupport.parkNanos(nanos);
                after.run();
                return FLOAT_SUM_INTO.fold(block);
            }

            @Override
            public float[] merge(float[] earlier, float[] later) {
                return FLOAT_SUM_INTO.merge(earlier, later);
            }
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
