/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.ScfluxFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.test.StepVerifier;

/** The file is read only as blocks are requested, cancelling releases it, and read errors arrive as onError. */
@Timeout(60)
class BlockStreamingTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void readsOneBlockPerRequestNothingAhead() {
        FileMatrix x = H5ad.openMatrix(Fixtures.path("x-csr-contiguous.h5ad"), "/X");
        BlockPlan plan = x.plan(new PlanTarget(4000, 1000));
        assertTrue(plan.size() >= 8, "enough blocks: " + plan);
        long afterPlan = x.stats().bytesRead();
        // Contiguous int32 indptr, int32 indices, float32 data: a block costs exactly its bytes.
        long first = 4L * (plan.nRows(0) + 1) + 8L * plan.nnz(0);
        long second = 4L * (plan.nRows(1) + 1) + 8L * plan.nnz(1);
        StepVerifier.create(x.blocks(plan), 0)
                .expectSubscription()
                .then(() -> assertEquals(0, x.stats().blocksRead(), "nothing read before a request"))
                .thenRequest(1)
                .assertNext(b -> assertEquals(0, b.blockIndex()))
                .then(() -> {
                    assertEquals(1, x.stats().blocksRead());
                    assertEquals(first, x.stats().bytesRead() - afterPlan);
                })
                .thenRequest(1)
                .assertNext(b -> assertEquals(1, b.blockIndex()))
                .then(() -> {
                    assertEquals(2, x.stats().blocksRead());
                    assertEquals(first + second, x.stats().bytesRead() - afterPlan);
                })
                .thenCancel()
                .verify(WAIT);
        assertEquals(2, x.stats().blocksRead(), "nothing read after cancel");
    }

    @Test
    void parallelReadAheadIsBoundedByThreads() {
        FileMatrix x = H5ad.openMatrix(Fixtures.path("x-csr-anndata08.h5ad"), "/X");
        BlockPlan plan = x.plan(new PlanTarget(2000, 1000));
        int threads = 3;
        StepVerifier.create(x.blocks(plan, Execution.threads(threads)), 0)
                .thenRequest(1)
                .assertNext(b -> assertEquals(0, b.blockIndex()))
                // the block delivered, plus at most `threads` more in flight
                .then(() -> assertTrue(
                        x.stats().blocksRead() <= 1 + threads,
                        "at most " + threads + " blocks ahead, read "
                                + x.stats().blocksRead()))
                .thenRequest(Long.MAX_VALUE)
                .expectNextCount(plan.size() - 1)
                .verifyComplete();
        assertEquals(plan.size(), x.stats().blocksRead());
    }

    @Test
    void cancelClosesTheFile() {
        Path file = Fixtures.path("x-dense-lzf.h5ad");
        FileMatrix x = H5ad.openMatrix(file, "/X");
        BlockPlan plan = x.plan(new PlanTarget(20_000, 1000));
        assertEquals(0, openHandles(file));
        StepVerifier.create(x.blocks(plan, Execution.threads(2)), 1)
                .expectNextCount(1)
                .then(() -> assertTrue(openHandles(file) >= 1, "the reader holds the file"))
                .thenCancel()
                .verify(WAIT);
        awaitNoHandles(file);
        StepVerifier.create(x.blocks(plan)).expectNextCount(plan.size()).verifyComplete();
        awaitNoHandles(file);
    }

    @Test
    void readErrorReachesTheSubscriberWithFileAndPath() {
        Path file = Fixtures.path("bad-index-range.h5ad");
        FileMatrix x = H5ad.openMatrix(file, "/X");
        BlockPlan plan = x.plan(new PlanTarget(1, 1));
        StepVerifier.create(x.blocks(plan))
                .expectNextCount(7)
                .expectErrorSatisfies(e -> {
                    assertTrue(e instanceof ScfluxFormatException, e.toString());
                    assertTrue(
                            e.getMessage().startsWith(file.toString() + ": /X/indices: column index 2000"),
                            e.getMessage());
                    assertTrue(e.getMessage().contains("(row 7) outside [0, 2000)"), e.getMessage());
                })
                .verify(WAIT);
        awaitNoHandles(file);
    }

    @Test
    void decreasingIndptrFailsWhenItIsRead() {
        Path file = Fixtures.path("bad-indptr-decreasing.h5ad");
        var facts = Fixtures.variants().get("decreasing_indptr");
        String expected = file + ": /X/indptr: indptr decreases at row "
                + facts.get("row").asInt() + " (" + facts.get("before").asLong() + " then "
                + facts.get("after").asLong() + ")";
        FileMatrix x = H5ad.openMatrix(file, "/X");
        StepVerifier.create(x.blocks(BlockPlan.uniform(10, 2, 2000, PlanTarget.DEFAULT)))
                .expectNextCount(2)
                .expectErrorMatches(e ->
                        e instanceof ScfluxFormatException && e.getMessage().equals(expected))
                .verify(WAIT);
        assertEquals(
                expected,
                org.junit.jupiter.api.Assertions.assertThrows(ScfluxFormatException.class, x::plan)
                        .getMessage());
    }

    @Test
    void truncatedFileIsAnErrorNotAHang(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        byte[] whole = Files.readAllBytes(Fixtures.path("x-csr-contiguous.h5ad"));
        for (double keep : new double[] {0.02, 0.3, 0.6, 0.9, 0.999}) {
            Path cut = dir.resolve("cut-" + keep + ".h5ad");
            Files.write(cut, java.util.Arrays.copyOf(whole, (int) (whole.length * keep)));
            AtomicLong blocks = new AtomicLong();
            Throwable t = org.junit.jupiter.api.Assertions.assertThrows(
                    ScfluxFormatException.class,
                    () -> {
                        FileMatrix x = H5ad.openMatrix(cut, "/X");
                        x.blocks().doOnNext(b -> blocks.incrementAndGet()).blockLast(WAIT);
                    },
                    "cut at " + keep);
            assertTrue(t.getMessage().startsWith(cut.toString()), t.getMessage());
        }
    }

    /** Descriptors of this JVM that point at {@code file}. */
    static long openHandles(Path file) {
        long n = 0;
        try (var fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            Path real = file.toRealPath();
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).equals(real)) {
                        n++;
                    }
                } catch (IOException ignored) {
                    // the descriptor closed while we looked
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return n;
    }

    /**
     * Waits until {@code file} has had no descriptor for 100 ms. Not just for none: a read in flight at the cancel,
     * its channel closed under it by the cancel's interrupt, opens the file again to finish (Storage.read) and closes
     * it when it leaves, so the count can go 0, 1, 0 (seen about once in a hundred cancels).
     */
    private static void awaitNoHandles(Path file) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        try {
            long since = System.nanoTime();
            while (System.nanoTime() < deadline && System.nanoTime() - since < 100_000_000L) {
                if (openHandles(file) > 0) {
                    since = System.nanoTime();
                }
                Thread.sleep(2);
            }
            assertEquals(0, openHandles(file), "file released");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
