/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.MemoryAccount;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.CsrMatrix;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.StepVerifier;

/**
 * What every block source must do, run for each source type across the block size x threads matrix (as reactor-core
 * runs every operator through one scenario base class, in each fusion mode): the same entries with any plan, any
 * thread count and either emission (blocks, or buffers given back), blocks in order covering every row once, nothing
 * read without demand, the reader closed on complete, cancel and error, a read failure delivered as onError, and
 * buffers reused, accounted and capped.
 */
public abstract class BlockSourceContract {

    protected static final Duration WAIT = Duration.ofSeconds(60);

    /** A fresh source under test. */
    protected abstract BlockSource source();

    /** The entries the source must yield, computed independently of it. */
    protected abstract CsrMatrix expected();

    @ParameterizedTest(name = "{0} x {1} x {2}")
    @MethodSource("io.scflux.core.test.Scenario#blockSizesByThreadsByEmission")
    void sameEntriesWithAnyPlanAndThreads(BlockSize size, Threads threads, Emission emission) {
        BlockSource s = source();
        BlockPlan plan = s.plan(size.target());
        List<RowBlock> blocks =
                emission.blocks(s, plan, threads.execution()).collectList().block(WAIT);
        assertEquals(plan.size(), blocks.size());
        long row = 0;
        for (int i = 0; i < blocks.size(); i++) {
            RowBlock b = blocks.get(i);
            assertEquals(i, b.blockIndex(), "block order");
            assertEquals(row, b.rowStart(), "rows covered once, in order");
            assertEquals(plan.nRows(i), b.nRows());
            assertEquals(s.nCols(), b.nCols());
            assertTrue(b.nnz() <= plan.nnz(i), "a block holds at most its planned entries");
            row += b.nRows();
        }
        assertEquals(s.nRows(), row);
        CsrMatrix.Builder m = CsrMatrix.builder(s.nCols());
        blocks.forEach(m::add);
        Matrices.assertSame(expected(), m.build());
    }

    @Test
    void planDependsOnTheDataAndTargetOnly() {
        PlanTarget t = BlockSize.TINY.target();
        assertEquals(source().plan(t), source().plan(t));
        assertEquals(source().nRows(), source().plan(t).totalRows());
    }

    @ParameterizedTest
    @EnumSource(Emission.class)
    void readsOnlyWhatIsRequested(Emission emission) {
        CountingSource s = CountingSource.of(source());
        BlockPlan plan = s.plan(BlockSize.ONE_ROW.target());
        assumeTrue(plan.size() >= 3, "the source has three rows");
        StepVerifier.create(emission.blocks(s, plan, Execution.sequential()), 0)
                .expectSubscription()
                .then(() -> assertEquals(0, s.reads.get()))
                .thenRequest(2)
                .expectNextCount(2)
                .then(() -> assertEquals(2, s.reads.get()))
                .thenCancel()
                .verify(WAIT);
        awaitClosed(s);
    }

    @ParameterizedTest
    @EnumSource(Emission.class)
    void parallelReadsStayWithinTheThreadBound(Emission emission) {
        CountingSource s = CountingSource.of(source());
        BlockPlan plan = s.plan(BlockSize.ONE_ROW.target());
        assumeTrue(plan.size() > 0, "the source has rows");
        int threads = 2;
        StepVerifier.create(emission.blocks(s, plan, Execution.threads(threads)), 0)
                .thenRequest(1)
                .expectNextCount(1)
                .then(() -> assertTrue(s.reads.get() <= 1 + threads, "read " + s.reads.get()))
                .thenRequest(Long.MAX_VALUE)
                .expectNextCount(plan.size() - 1)
                .verifyComplete();
        awaitClosed(s);
    }

    @ParameterizedTest
    @EnumSource(Emission.class)
    void cancelClosesTheReader(Emission emission) {
        CountingSource s = CountingSource.of(source());
        assumeTrue(s.nRows() > 0, "the source has rows");
        StepVerifier.create(emission.blocks(s, s.plan(BlockSize.ONE_ROW.target()), Execution.threads(2)), 1)
                .expectNextCount(1)
                .thenCancel()
                .verify(WAIT);
        awaitClosed(s);
    }

    @ParameterizedTest
    @EnumSource(Emission.class)
    void readFailureArrivesAsOnErrorAndCloses(Emission emission) {
        BlockSource base = source();
        BlockPlan plan = base.plan(BlockSize.ONE_ROW.target());
        assumeTrue(plan.size() > 0, "the source has rows");
        int at = Math.min(2, plan.size() - 1);
        for (Threads t : Threads.values()) {
            CountingSource s = CountingSource.failingAt(base, at);
            StepVerifier.create(emission.blocks(s, plan, t.execution()))
                    .expectNextCount(at)
                    .expectErrorMessage("injected failure at block " + at)
                    .verify(WAIT);
            awaitClosed(s);
        }
    }

    @ParameterizedTest
    @EnumSource(Emission.class)
    void completionClosesTheReader(Emission emission) {
        CountingSource s = CountingSource.of(source());
        StepVerifier.create(emission.blocks(s, s.plan(), Execution.sequential()))
                .expectNextCount(s.plan().size())
                .verifyComplete();
        awaitClosed(s);
    }

    /**
     * A pass over buffers holds as many as it has blocks in flight, whatever the number of blocks: at most one per
     * worker when each is given back as it arrives. Their bytes are in the pass's own account, released at the end.
     */
    @ParameterizedTest
    @EnumSource(Threads.class)
    void buffersAreReusedAndAccounted(Threads threads) {
        BlockSource s = source();
        BlockPlan plan = s.plan(BlockSize.ONE_ROW.target());
        assumeTrue(plan.size() > 2 * threads.count(), "more blocks than buffers in flight");
        MemoryAccount account = MemoryAccount.root("test", Long.MAX_VALUE);
        Set<BlockBuffer> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Long> held = new ArrayList<>();
        StepVerifier.create(s.buffers(plan, threads.execution(), account).doOnNext(b -> {
                    synchronized (seen) {
                        seen.add(b);
                        held.add(account.reserved());
                    }
                    b.release();
                }))
                .expectNextCount(plan.size())
                .verifyComplete();
        long perBuffer = 4L * (plan.maxBlockRows() + 1) + 8L * plan.maxBlockNnz() + 8L * (plan.maxBlockRows() + 1);
        assertTrue(seen.size() <= threads.count() + 1, seen.size() + " buffers for " + threads);
        assertTrue(
                account.peak() <= seen.size() * perBuffer,
                "peak " + account.peak() + " bytes for " + seen.size() + " buffers of " + perBuffer);
        assertTrue(held.stream().allMatch(h -> h > 0), "the buffers are held in the pass's account while it runs");
        assertEquals(0, account.reserved(), "released at the end");
        assertEquals(List.of(), account.children(), "the pass's account is closed");
    }

    /** A cap below one buffer refuses the pass before a reader is opened, as onError naming the account. */
    @Test
    void buffersBeyondTheCapAreRefused() {
        CountingSource s = CountingSource.of(source());
        BlockPlan plan = s.plan(BlockSize.DEFAULT.target());
        assumeTrue(plan.maxBlockNnz() > 0, "the source has entries");
        MemoryAccount account = MemoryAccount.root("small", 4L * plan.maxBlockNnz());
        StepVerifier.create(s.buffers(plan, Execution.threads(2), account))
                .expectErrorSatisfies(e -> {
                    assertTrue(e instanceof MemoryBudgetExceededException, e.toString());
                    assertTrue(e.getMessage().contains("account 'small'"), e.getMessage());
                })
                .verify(WAIT);
        assertEquals(0, s.opened.get(), "refused before a reader is opened");
        assertEquals(0, account.reserved());
        assertEquals(List.of(), account.children(), "no pass account left open");
    }

    /** Every opened reader gets closed (cancellation may close it on another thread, a moment later). */
    protected static void awaitClosed(CountingSource s) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (s.closed.get() < s.opened.get() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(s.opened.get(), s.closed.get(), "readers closed");
        assertTrue(s.opened.get() >= 1);
    }
}
