package io.scflux.core.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.CsrMatrix;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.test.StepVerifier;

/**
 * What every block source must do, run for each source type across the block size x threads matrix (as reactor-core
 * runs every operator through one scenario base class): the same entries with any plan and any thread count,
 * blocks in order covering every row once, nothing read without demand, the reader closed on complete, cancel and
 * error, and a read failure delivered as onError.
 */
public abstract class BlockSourceContract {

    protected static final Duration WAIT = Duration.ofSeconds(60);

    /** A fresh source under test. */
    protected abstract BlockSource source();

    /** The entries the source must yield, computed independently of it. */
    protected abstract CsrMatrix expected();

    @ParameterizedTest(name = "{0} x {1}")
    @MethodSource("io.scflux.core.test.Scenario#blockSizesByThreads")
    void sameEntriesWithAnyPlanAndThreads(BlockSize size, Threads threads) {
        BlockSource s = source();
        BlockPlan plan = s.plan(size.target());
        List<RowBlock> blocks = s.blocks(plan, threads.execution()).collectList().block(WAIT);
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

    @Test
    void readsOnlyWhatIsRequested() {
        CountingSource s = CountingSource.of(source());
        BlockPlan plan = s.plan(BlockSize.ONE_ROW.target());
        assumeTrue(plan.size() >= 3, "the source has three rows");
        StepVerifier.create(s.blocks(plan), 0)
                .expectSubscription()
                .then(() -> assertEquals(0, s.reads.get()))
                .thenRequest(2)
                .expectNextCount(2)
                .then(() -> assertEquals(2, s.reads.get()))
                .thenCancel()
                .verify(WAIT);
        awaitClosed(s);
    }

    @Test
    void parallelReadsStayWithinTheThreadBound() {
        CountingSource s = CountingSource.of(source());
        BlockPlan plan = s.plan(BlockSize.ONE_ROW.target());
        assumeTrue(plan.size() > 0, "the source has rows");
        int threads = 2;
        StepVerifier.create(s.blocks(plan, Execution.threads(threads)), 0)
                .thenRequest(1)
                .expectNextCount(1)
                .then(() -> assertTrue(s.reads.get() <= 1 + threads, "read " + s.reads.get()))
                .thenRequest(Long.MAX_VALUE)
                .expectNextCount(plan.size() - 1)
                .verifyComplete();
        awaitClosed(s);
    }

    @Test
    void cancelClosesTheReader() {
        CountingSource s = CountingSource.of(source());
        assumeTrue(s.nRows() > 0, "the source has rows");
        StepVerifier.create(s.blocks(s.plan(BlockSize.ONE_ROW.target()), Execution.threads(2)), 1)
                .expectNextCount(1)
                .thenCancel()
                .verify(WAIT);
        awaitClosed(s);
    }

    @Test
    void readFailureArrivesAsOnErrorAndCloses() {
        BlockSource base = source();
        BlockPlan plan = base.plan(BlockSize.ONE_ROW.target());
        assumeTrue(plan.size() > 0, "the source has rows");
        int at = Math.min(2, plan.size() - 1);
        for (Threads t : Threads.values()) {
            CountingSource s = CountingSource.failingAt(base, at);
            StepVerifier.create(s.blocks(plan, t.execution()))
                    .expectNextCount(at)
                    .expectErrorMessage("injected failure at block " + at)
                    .verify(WAIT);
            awaitClosed(s);
        }
    }

    @Test
    void completionClosesTheReader() {
        CountingSource s = CountingSource.of(source());
        StepVerifier.create(s.blocks()).expectNextCount(s.plan().size()).verifyComplete();
        awaitClosed(s);
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
