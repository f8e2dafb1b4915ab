/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.log1p;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.StagedSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Threads;
import io.scflux.ops.normalized.Log1pStage;
import io.scflux.ops.reference.Fractional;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

class Log1pTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void naturalLogarithmOfEveryValueInFloat32() {
        CsrMatrix counts = Fractional.matrix(3);
        AnnData data = Log1p.log1p(AnnData.of(counts), Log1pOptions.defaults(), Streaming.DEFAULT)
                .block(WAIT);
        CsrMatrix m = Fractional.collect(data.x(), Threads.EIGHT);
        assertEquals(counts.nnz(), m.nnz());
        for (long k = 0; k < m.nnz(); k++) {
            assertEquals((float) Math.log1p(counts.value(k)), m.value(k), 0, "entry " + k);
        }
        assertEquals(DType.FLOAT32, data.x().dtype());
        Map<?, ?> uns = (Map<?, ?>) data.uns().get("log1p");
        assertTrue(uns.containsKey("base"));
        assertNull(uns.get("base"), "scanpy's {'base': None}");
    }

    @Test
    void aBaseDividesTheFloat32LogarithmByItsLogarithm() {
        CsrMatrix counts = Fractional.matrix(4);
        AnnData data = Log1p.log1p(AnnData.of(counts), new Log1pOptions(2.0), Streaming.DEFAULT)
                .block(WAIT);
        CsrMatrix m = Fractional.collect(data.x(), Threads.ONE);
        for (long k = 0; k < m.nnz(); k++) {
            float ln = (float) Math.log1p(counts.value(k));
            assertEquals((float) (ln / Math.log(2)), m.value(k), 0, "entry " + k);
        }
        assertEquals(DenseArray.scalar(2.0), ((Map<?, ?>) data.uns().get("log1p")).get("base"));
    }

    @Test
    void otherTypesBecomeFloat64() {
        for (DType type : List.of(DType.FLOAT64, DType.INT32)) {
            CsrMatrix counts = Fractional.matrix(4).withDtype(type);
            AnnData data = Log1p.log1p(AnnData.of(counts), new Log1pOptions(10.0), Streaming.DEFAULT)
                    .block(WAIT);
            assertEquals(DType.FLOAT64, data.x().dtype(), type.toString());
            CsrMatrix m = Fractional.collect(data.x(), Threads.TWO);
            for (long k = 0; k < m.nnz(); k++) {
                assertEquals((float) (Math.log1p(counts.value(k)) / Math.log(10)), m.value(k), 0, "entry " + k);
            }
        }
    }

    @Test
    void readsNothingAndIsLazy() {
        CountingSource counts = CountingSource.of(Fractional.matrix(3));
        AnnData data = AnnData.of(counts);
        var log1p = Log1p.log1p(data, Log1pOptions.defaults(), Streaming.DEFAULT);
        assertSame(counts, data.x(), "nothing before subscription");
        StepVerifier.create(log1p)
                .assertNext(out -> assertSame(counts, ((StagedSource) out.x()).base()))
                .verifyComplete();
        assertSame(counts, data.x(), "the input keeps its X");
        assertEquals(0, counts.opened.get(), "no pass over X");
        StepVerifier.create(Log1p.log1p(
                        new AnnData(null, data.obs(), data.var()), Log1pOptions.defaults(), Streaming.DEFAULT))
                .expectErrorMessage("the container has no X")
                .verify(WAIT);
    }

    @Test
    void baseMustBeAUsableBase() {
        for (double bad : new double[] {1, 0, -2, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> new Log1pOptions(bad), "base " + bad);
        }
    }

    @Test
    void theFastPathIsMathLog1p() {
        for (float v : new float[] {
            0,
            1e-30f,
            -1e-30f,
            0x1p-29f,
            0x1.8p-29f,
            1e-9f,
            0.5f,
            1,
            3,
            857,
            1e7f,
            3e38f,
            -0.5f,
            -0.999f,
            -1,
            -2,
            Float.NaN,
            Float.POSITIVE_INFINITY,
            Float.MIN_VALUE
        }) {
            float exact = (float) Math.log1p(v);
            float fast = (float) Log1pStage.log1p(v);
            assertTrue(
                    Float.compare(exact, fast) == 0 || Math.abs(exact - fast) <= Math.ulp(exact),
                    "log1p(" + v + "): " + exact + " vs " + fast);
        }
    }
}
