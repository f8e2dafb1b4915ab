package io.scflux.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.NormalizedView;
import io.scflux.core.backend.Streaming;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.Threads;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

class PreprocessTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void equalsQcThenNormalizeThenLog1pInOnePass() {
        for (Double target : new Double[] {1e4, null}) {
            PreprocessOptions options = PreprocessOptions.defaults()
                    .withQc(QcMetricsOptions.defaults().withQcVars("mt"))
                    .withNormalize(NormalizeTotalOptions.defaults().withTargetSum(target).withKeyAdded("factor"));
            Streaming streaming = new Streaming(BlockSize.SMALL.target(), Threads.TWO.execution());

            AnnData fused = QcMetricsTest.countsWithMt();
            CountingSource counts = CountingSource.of(fused.x());
            fused.setX(counts);
            fused = Preprocess.preprocess(fused, options, streaming).block(WAIT);
            assertEquals(1, counts.opened.get(), "one pass over X");
            assertEquals(counts.plan(BlockSize.SMALL.target()).size(), counts.reads.get());
            assertSame(counts, ((NormalizedView) fused.x()).counts(), "X is one view over the counts");

            AnnData steps = QcMetrics.calculate(QcMetricsTest.countsWithMt(), options.qc(), streaming)
                    .flatMap(d -> NormalizeTotal.normalize(d, options.normalize(), streaming))
                    .flatMap(d -> Log1p.log1p(d, options.log1p(), streaming)).block(WAIT);
            Tolerance.assertSameColumns(steps.obs(), fused.obs());
            Tolerance.assertSameColumns(steps.var(), fused.var());
            assertEquals(steps.x().dtype(), fused.x().dtype());
            Matrices.assertSame(Fractional.collect(steps.x(), Threads.ONE), Fractional.collect(fused.x(),
                    Threads.EIGHT));
            assertEquals(steps.uns(), fused.uns());
            if (target != null) {
                NormalizedReference.assertMatches("normalized_log1p", fused.x());
            }
        }
    }

    @Test
    void sameBitsWithAnyThreadCount() {
        PreprocessOptions options = PreprocessOptions.defaults().withQc(QcMetricsOptions.defaults()
                .withPercentTop(10));
        AnnData first = null;
        for (Threads t : Threads.values()) {
            AnnData data = Preprocess.preprocess(AnnData.of(Fractional.matrix(9)), options,
                    new Streaming(BlockSize.TINY.target(), t.execution())).block(WAIT);
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
        PreprocessOptions options = PreprocessOptions.defaults().withQc(QcMetricsOptions.defaults()
                .withPercentTop(10));
        var pre = Preprocess.preprocess(data, options, Streaming.DEFAULT);
        assertEquals(0, counts.opened.get());
        StepVerifier.create(pre).assertNext(out -> assertTrue(out.obs().has("total_counts"))).verifyComplete();
        assertTrue(data.obs().columns().isEmpty(), "the input is left as it was");

        BlockSource failing = CountingSource.failingAt(Fractional.matrix(9), 3);
        AnnData bad = AnnData.of(failing);
        StepVerifier.create(Preprocess.preprocess(bad, options,
                        new Streaming(BlockSize.ONE_ROW.target(), Threads.TWO.execution())))
                .expectErrorMessage("injected failure at block 3").verify(WAIT);
        assertSame(failing, bad.x());
        assertTrue(bad.obs().columns().isEmpty());
    }

    @Test
    void excludingHighlyExpressedGenesIsNotOnePass() {
        assertThrows(IllegalArgumentException.class, () -> PreprocessOptions.defaults()
                .withNormalize(NormalizeTotalOptions.defaults().excludingHighlyExpressed(0.05)));
    }
}
