/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.FoldingSource;
import io.scflux.core.InvalidValueException;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.Threads;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.ops.log1p.Log1p;
import io.scflux.ops.normalize.NormalizeTotal;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.normalized.NormalizedView;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.qc.QcMetricsTest;
import io.scflux.ops.reference.Fractional;
import io.scflux.ops.reference.NormalizedReference;
import io.scflux.ops.reference.QcReference;
import io.scflux.ops.reference.Tolerance;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.test.StepVerifier;

class PreprocessTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void equalsQcThenNormalizeThenLog1pInOnePass() {
        for (Double target : new Double[] {1e4, null}) {
            PreprocessOptions options = PreprocessOptions.defaults()
                    .withQc(QcMetricsOptions.defaults().withQcVars("mt"))
                    .withNormalize(NormalizeTotalOptions.defaults()
                            .withTargetSum(target)
                            .withKeyAdded("factor"));
            Streaming streaming = new Streaming(BlockSize.SMALL.target(), Threads.TWO.execution());

            AnnData fused = QcMetricsTest.countsWithMt();
            CountingSource counts = CountingSource.of(fused.x());
            fused.setX(counts);
            fused = Preprocess.preprocess(fused, options, streaming).block(WAIT);
            BlockSource viewed = ((NormalizedView) fused.x()).base();
            if (target != null) {
                assertEquals(0, counts.opened.get(), "with a target sum, no pass of its own");
                assertTrue(viewed instanceof FoldingSource<?>, "QC rides along the reads of the counts");
                assertFalse(fused.obs().has("total_counts"), "pending until X is read");
                assertEquals(0, counts.opened.get(), "looking at obs runs nothing");
                streaming.blocks(fused.x()).blockLast(WAIT); // a pass over X, as a write makes
            } else {
                assertSame(counts, viewed, "X is one view over the counts");
            }
            assertEquals(1, counts.opened.get(), "one pass over X");
            fused = fused.complete().block(WAIT);
            assertTrue(fused.obs().has("total_counts") && fused.var().has("n_cells_by_counts"));
            assertEquals(1, counts.opened.get(), "the columns came with that pass");
            assertEquals(counts.plan(BlockSize.SMALL.target()).size(), counts.reads.get());

            AnnData steps = QcMetrics.calculate(QcMetricsTest.countsWithMt(), options.qc(), streaming)
                    .flatMap(d -> NormalizeTotal.normalize(d, options.normalize(), streaming))
                    .flatMap(d -> Log1p.log1p(d, options.log1p(), streaming))
                    .block(WAIT);
            Tolerance.assertSameColumns(steps.obs(), fused.obs());
            Tolerance.assertSameColumns(steps.var(), fused.var());
            assertEquals(steps.x().dtype(), fused.x().dtype());
            Matrices.assertSame(
                    Fractional.collect(steps.x(), Threads.ONE), Fractional.collect(fused.x(), Threads.EIGHT));
            assertEquals(steps.uns(), fused.uns());
            if (target != null) {
                NormalizedReference.assertMatches("normalized_log1p", fused.x());
            }
        }
    }

    @Test
    void sameBitsWithAnyThreadCount() {
        PreprocessOptions options =
                PreprocessOptions.defaults().withQc(QcMetricsOptions.defaults().withPercentTop(10));
        AnnData first = null;
        for (Threads t : Threads.values()) {
            AnnData data = Preprocess.preprocess(
                            AnnData.of(Fractional.matrix(9)),
                            options,
                            new Streaming(BlockSize.TINY.target(), t.execution()))
                    .block(WAIT);
            if (first == null) {
                first = data;
                continue;
            }
            Tolerance.assertSameColumns(first.obs(), data.obs());
            Tolerance.assertSameColumns(first.var(), data.var());
            Matrices.assertSame(Fractional.collect(first.x(), Threads.ONE), Fractional.collect(data.x(), t));
        }
    }

    @Test
    void nothingHappensBeforeSubscriptionAndErrorsArriveAsOnError() {
        CountingSource counts = CountingSource.of(Fractional.matrix(9));
        AnnData data = AnnData.of(counts);
        PreprocessOptions options =
                PreprocessOptions.defaults().withQc(QcMetricsOptions.defaults().withPercentTop(10));
        var pre = Preprocess.preprocess(data, options, Streaming.DEFAULT);
        assertEquals(0, counts.opened.get());
        StepVerifier.create(pre)
                .assertNext(out -> assertTrue(out.obs().has("total_counts")))
                .verifyComplete();
        assertTrue(data.obs().columns().isEmpty(), "the input is left as it was");

        BlockSource failing = CountingSource.failingAt(Fractional.matrix(9), 3);
        AnnData bad = AnnData.of(failing);
        StepVerifier.create(Preprocess.preprocess(
                        bad, options, new Streaming(BlockSize.ONE_ROW.target(), Threads.TWO.execution())))
                .expectErrorMessage("injected failure at block 3")
                .verify(WAIT);
        assertSame(failing, bad.x());
        assertTrue(bad.obs().columns().isEmpty());
    }

    @Test
    void excludingHighlyExpressedGenesIsNotOnePass() {
        assertThrows(
                IllegalArgumentException.class,
                () -> PreprocessOptions.defaults()
                        .withNormalize(NormalizeTotalOptions.defaults().excludingHighlyExpressed(0.05)));
    }

    private static final PreprocessOptions TARGET = PreprocessOptions.defaults()
            .withQc(QcMetricsOptions.defaults().withQcVars("mt"))
            .withNormalize(NormalizeTotalOptions.defaults().withTargetSum(1e4));

    private static final Streaming TWO_THREADS = new Streaming(BlockSize.SMALL.target(), Threads.TWO.execution());

    private static final WriteOptions WRITE =
            WriteOptions.DEFAULT.withPlan(BlockSize.SMALL.target()).withExecution(Threads.TWO.execution());

    /** With a target sum, writing the result is the only pass: X streams first, obs and var follow with QC's columns. */
    @Test
    void theWriteIsTheOnePassAndTheFileIsTheStepsFile(@TempDir Path dir) {
        AnnData data = QcMetricsTest.countsWithMt();
        CountingSource counts = CountingSource.of(data.x());
        data.setX(counts);
        Path fused = dir.resolve("fused.h5ad");
        H5ad.write(Preprocess.preprocess(data, TARGET, TWO_THREADS).block(WAIT), fused, WRITE)
                .block(WAIT);
        assertEquals(1, counts.opened.get(), "one read of X for the whole write");

        AnnData steps = QcMetrics.calculate(QcMetricsTest.countsWithMt(), TARGET.qc(), TWO_THREADS)
                .flatMap(d -> NormalizeTotal.normalize(d, TARGET.normalize(), TWO_THREADS))
                .flatMap(d -> Log1p.log1p(d, TARGET.log1p(), TWO_THREADS))
                .block(WAIT);
        Path stepwise = dir.resolve("steps.h5ad");
        H5ad.write(steps, stepwise, WRITE).block(WAIT);

        AnnData a = H5ad.read(stepwise);
        AnnData b = H5ad.read(fused);
        Tolerance.assertSameColumns(a.obs(), b.obs());
        Tolerance.assertSameColumns(a.var(), b.var());
        Matrices.assertSame(Fractional.collect(a.x(), Threads.ONE), Fractional.collect(b.x(), Threads.ONE));
        NormalizedReference.assertMatches("normalized_log1p", b.x());
        QcReference.assertMatches(b);
    }

    /** Written without X, the columns pending in the container written come from QC's own pass, run by the writer. */
    @Test
    void annotationsWithoutXRunQcsOwnPass(@TempDir Path dir) {
        AnnData data = QcMetricsTest.countsWithMt();
        CountingSource counts = CountingSource.of(data.x());
        data.setX(counts);
        AnnData result = Preprocess.preprocess(data, TARGET, TWO_THREADS).block(WAIT);
        Path out = dir.resolve("annotations.h5ad");
        AnnData annotations = new AnnData(null, result.obs(), result.var()).setPending(result.pending());
        assertEquals(0, counts.opened.get());
        H5ad.write(annotations, out, WRITE).block(WAIT);
        assertEquals(1, counts.opened.get());
        QcReference.assertMatches(H5ad.read(out));
    }

    /** A negative count found on the way fails the write: nothing is left at the target or beside it. */
    @Test
    void aNegativeCountFailsTheWriteAndLeavesNoFile(@TempDir Path dir) throws java.io.IOException {
        AnnData data = AnnData.of(Matrices.of(new float[] {1, 0, 2}, new float[] {0, -3, 1}, new float[] {4, 1, 0}));
        data.var().put("mt", QcMetrics.genesStartingWith(data.var(), "MT-"));
        Path out = dir.resolve("bad.h5ad");
        AnnData result = Preprocess.preprocess(data, TARGET.withQc(TARGET.qc().withPercentTop(1)), TWO_THREADS)
                .block(WAIT);
        InvalidValueException e = assertThrows(
                InvalidValueException.class,
                () -> H5ad.write(result, out, WRITE).block(WAIT));
        assertTrue(e.getMessage().contains("-3.0") && e.getMessage().contains("calculate_qc_metrics"), e.getMessage());
        try (var left = java.nio.file.Files.list(dir)) {
            assertEquals(List.of(), left.toList());
        }
    }

    /** A selection taken before X is read keeps every row's factor: it settles QC's fold first. */
    @Test
    void aSelectionBeforeAnyReadHasEveryFactor() {
        AnnData fused = Preprocess.preprocess(QcMetricsTest.countsWithMt(), TARGET, TWO_THREADS)
                .block(WAIT);
        AnnData steps = QcMetrics.calculate(QcMetricsTest.countsWithMt(), TARGET.qc(), TWO_THREADS)
                .flatMap(d -> NormalizeTotal.normalize(d, TARGET.normalize(), TWO_THREADS))
                .flatMap(d -> Log1p.log1p(d, TARGET.log1p(), TWO_THREADS))
                .block(WAIT);
        int[] rows = {17, 0, 5, 5};
        int[] cols = {3, 1, 40};
        Matrices.assertSame(
                Fractional.collect(((NormalizedView) steps.x()).select(rows, cols, false), Threads.ONE),
                Fractional.collect(((NormalizedView) fused.x()).select(rows, cols, false), Threads.TWO));
        assertEquals(
                List.of(steps.obs().column("total_counts").get(17)),
                List.of(fused.complete()
                        .block(WAIT)
                        .obs()
                        .column("total_counts")
                        .get(17)));
    }
}
