/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.Threads;
import io.scflux.ops.log1p.Log1p;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalized.NormalizedView;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.reference.Fractional;
import io.scflux.ops.reference.NormalizedReference;
import io.scflux.ops.reference.Reference;
import io.scflux.ops.reference.Tolerance;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

class NormalizeTotalTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final NormalizeTotalOptions TARGET_1E4 =
            NormalizeTotalOptions.defaults().withTargetSum(1e4);

    @Test
    void medianTargetMatchesScanpy() {
        AnnData data = NormalizeTotal.normalize(
                        Reference.counts(), NormalizeTotalOptions.defaults().withKeyAdded("factor"), Streaming.DEFAULT)
                .block(WAIT);
        NormalizedReference.assertMatches("normalized_median", data.x());
        // the reference's median of the cell totals is 858: each factor is total / 858 in float32
        double[] totals = Tolerance.doubles(
                QcMetrics.calculate(Reference.counts(), QcMetricsOptions.defaults(), Streaming.DEFAULT)
                        .block(WAIT)
                        .obs()
                        .column("total_counts"));
        double[] factors = Tolerance.doubles(data.obs().column("factor"));
        assertEquals("float32", data.obs().column("factor").typeName());
        for (int i = 0; i < totals.length; i++) {
            assertEquals((float) totals[i] / 858f, factors[i], 0, "factor of cell " + i);
        }
    }

    @Test
    void targetSumThenLog1pMatchesScanpy() {
        AnnData data = NormalizeTotal.normalize(Reference.counts(), TARGET_1E4, Streaming.DEFAULT)
                .flatMap(d -> Log1p.log1p(d, Log1pOptions.defaults(), Streaming.DEFAULT))
                .block(WAIT);
        NormalizedReference.assertMatches("normalized_log1p", data.x());
    }

    @Test
    void xStaysLazyOverTheCounts() {
        AnnData data = Reference.counts();
        CountingSource counts = CountingSource.of(data.x());
        data.setX(counts);
        Streaming streaming = new Streaming(BlockSize.SMALL.target(), Threads.TWO.execution());
        data = NormalizeTotal.normalize(data, TARGET_1E4, streaming).block(WAIT);
        int blocks = counts.plan(BlockSize.SMALL.target()).size();
        assertEquals(1, counts.opened.get(), "one pass");
        assertEquals(blocks, counts.reads.get(), "each block read once");
        NormalizedView x = (NormalizedView) data.x();
        assertSame(counts, x.base(), "X is a view over the counts");
        data = Log1p.log1p(data, Log1pOptions.defaults(), streaming).block(WAIT);
        assertSame(counts, ((NormalizedView) data.x()).base(), "log1p joins the same view");
        assertTrue(((NormalizedView) data.x()).isLog1p());
        assertEquals(blocks, counts.reads.get(), "nothing read by log1p");
    }

    @Test
    void sameBitsWithAnyThreadCount() {
        for (NormalizeTotalOptions options : List.of(
                NormalizeTotalOptions.defaults().withKeyAdded("f"),
                TARGET_1E4.excludingHighlyExpressed(0.1).withKeyAdded("f"))) {
            CsrMatrix first = null;
            Object firstFactors = null;
            for (Threads t : Threads.values()) {
                AnnData data = AnnData.of(Fractional.matrix(5));
                data = NormalizeTotal.normalize(data, options, new Streaming(BlockSize.TINY.target(), t.execution()))
                        .block(WAIT);
                CsrMatrix m = Fractional.collect(data.x(), t);
                Object factors =
                        ((io.scflux.core.anndata.ArrayColumn) data.obs().column("f")).values();
                if (first == null) {
                    first = m;
                    firstFactors = factors;
                } else {
                    Matrices.assertSame(first, m);
                    assertEquals(firstFactors, factors);
                }
            }
        }
    }

    @Test
    void blockSizesAgreeWithinTolerance() {
        double[] reference = values(NormalizeTotalOptions.defaults(), BlockSize.DEFAULT);
        for (BlockSize size : BlockSize.values()) {
            Tolerance.assertClose(
                    reference, values(NormalizeTotalOptions.defaults(), size), Tolerance.RELATIVE, size.name());
        }
    }

    private static double[] values(NormalizeTotalOptions options, BlockSize size) {
        AnnData data = AnnData.of(Fractional.matrix(5));
        data = NormalizeTotal.normalize(data, options, new Streaming(size.target(), Threads.EIGHT.execution()))
                .block(WAIT);
        CsrMatrix m = Fractional.collect(data.x(), Threads.ONE);
        double[] out = new double[(int) m.nnz()];
        for (int k = 0; k < out.length; k++) {
            out[k] = m.value(k);
        }
        return out;
    }

    /** An empty cell (with a stored zero), a cell of one gene, two ordinary cells; the scanpy rules by hand. */
    private static CsrMatrix edgeCases() {
        return CsrMatrix.builder(4)
                .addRow(new int[] {2}, new float[] {0})
                .addRow(new int[] {1}, new float[] {3})
                .addRow(new int[] {0, 1, 3}, new float[] {1, 2, 7})
                .addRow(new int[] {0, 2, 3}, new float[] {5, 5, 1})
                .build();
    }

    @Test
    void anEmptyCellStaysZeroAndTheMedianSkipsIt() {
        AnnData data = AnnData.of(edgeCases());
        data = NormalizeTotal.normalize(data, NormalizeTotalOptions.defaults().withKeyAdded("f"), Streaming.DEFAULT)
                .block(WAIT);
        // totals 0, 3, 10, 11: the median of the positive ones is 10
        double[] f = Tolerance.doubles(data.obs().column("f"));
        float[] factors = {0, 3f / 10, 10f / 10, 11f / 10};
        for (int i = 0; i < factors.length; i++) {
            assertEquals(factors[i], f[i], 0, "factor of cell " + i);
        }
        CsrMatrix m = Fractional.collect(data.x(), Threads.ONE);
        float[] expected = {0, 3 / (3f / 10), 1 / 1f, 2 / 1f, 7 / 1f, 5 / (11f / 10), 5 / (11f / 10), 1 / (11f / 10)};
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], m.value(k), 0, "entry " + k);
        }
    }

    @Test
    void highlyExpressedGenesDoNotCount() {
        AnnData data = AnnData.of(edgeCases());
        data = NormalizeTotal.normalize(
                        data,
                        NormalizeTotalOptions.defaults()
                                .withTargetSum(1.0)
                                .excludingHighlyExpressed(0.5)
                                .withKeyAdded("f"),
                        Streaming.DEFAULT)
                .block(WAIT);
        // above half a cell's total: gene 1 (3 of 3), gene 3 (7 of 10); genes 0 and 2 (5 of 11) stay
        double[] keptTotals = {0, 0, 1, 10};
        double[] f = Tolerance.doubles(data.obs().column("f"));
        for (int i = 0; i < f.length; i++) {
            assertEquals((float) keptTotals[i], f[i], 0, "cell " + i);
        }
        CsrMatrix m = Fractional.collect(data.x(), Threads.ONE);
        float[] expected = {0, 3, 1, 2, 7, 5 / 10f, 5 / 10f, 1 / 10f};
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], m.value(k), 0, "entry " + k);
        }
    }

    @Test
    void float64StaysFloat64AndIntegersBecomeFloat32() {
        CsrMatrix base = edgeCases();
        AnnData f64 = AnnData.of(base.withDtype(DType.FLOAT64));
        f64 = NormalizeTotal.normalize(f64, TARGET_1E4.withKeyAdded("f"), Streaming.DEFAULT)
                .block(WAIT);
        assertEquals(DType.FLOAT64, f64.x().dtype());
        assertEquals("float64", f64.obs().column("f").typeName());
        assertEquals(11 / 1e4, Tolerance.doubles(f64.obs().column("f"))[3], 0);
        assertEquals(
                (float) (5 / (11 / 1e4)),
                Fractional.collect(f64.x(), Threads.ONE).value(5),
                0);

        AnnData ints = AnnData.of(base.withDtype(DType.INT64));
        ints = NormalizeTotal.normalize(ints, TARGET_1E4, Streaming.DEFAULT).block(WAIT);
        assertEquals(DType.FLOAT32, ints.x().dtype());
        assertEquals(5 / (11f / 1e4f), Fractional.collect(ints.x(), Threads.ONE).value(5), 0);
    }

    @Test
    void nothingHappensBeforeSubscriptionAndErrorsArriveAsOnError() {
        CountingSource counts = CountingSource.of(edgeCases());
        AnnData data = AnnData.of(counts);
        var normalized = NormalizeTotal.normalize(data, TARGET_1E4, Streaming.DEFAULT);
        assertEquals(0, counts.opened.get());
        assertSame(counts, data.x(), "X unchanged before subscription");
        StepVerifier.create(normalized)
                .assertNext(out -> assertTrue(out.x() instanceof NormalizedView))
                .verifyComplete();
        assertSame(counts, data.x(), "the input keeps its X");

        for (NormalizeTotalOptions options : List.of(TARGET_1E4, TARGET_1E4.excludingHighlyExpressed(0.5))) {
            BlockSource failing = CountingSource.failingAt(edgeCases(), 2);
            AnnData bad = AnnData.of(failing);
            StepVerifier.create(NormalizeTotal.normalize(
                            bad, options, new Streaming(BlockSize.ONE_ROW.target(), Threads.EIGHT.execution())))
                    .expectErrorMessage("injected failure at block 2")
                    .verify(WAIT);
            assertSame(failing, bad.x(), "X unchanged after an error");
        }
        StepVerifier.create(NormalizeTotal.normalize(
                        new AnnData(
                                null,
                                new io.scflux.core.anndata.Frame(new String[0]),
                                new io.scflux.core.anndata.Frame(new String[0])),
                        TARGET_1E4,
                        Streaming.DEFAULT))
                .expectErrorMessage("the container has no X")
                .verify(WAIT);
    }

    @Test
    void optionsAreChecked() {
        assertThrows(
                IllegalArgumentException.class,
                () -> NormalizeTotalOptions.defaults().withTargetSum(0.0));
        assertThrows(
                IllegalArgumentException.class,
                () -> NormalizeTotalOptions.defaults().excludingHighlyExpressed(1.5));
        assertFalse(NormalizeTotalOptions.defaults().excludeHighlyExpressed());
    }
}
