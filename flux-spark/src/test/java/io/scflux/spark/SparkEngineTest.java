/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import static io.scflux.spark.SameBits.assertSameBits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.Reducer;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.Pp;
import io.scflux.ops.PreprocessOptions;
import io.scflux.ops.concat.ConcatOptions;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.pseudobulk.PseudobulkOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

/**
 * Every operator on Spark (local mode, two cores, tasks retried up to four times) against the local engine, bit for
 * bit, on the fixtures and on a concatenation of three files, with blocks small enough for dozens of blocks over
 * several tasks.
 */
class SparkEngineTest {

    /** About 1,000 blocks (4 merge runs, so 4 tasks) per fixture of 3,000 cells. */
    static final PlanTarget SMALL = PlanTarget.ofChunkNnz(250);

    static final Streaming LOCAL = new Streaming(SMALL, Execution.threads(2));

    private static SparkEngine engine;
    private static Streaming spark;

    @BeforeAll
    static void start() {
        engine = LocalSpark.engine();
        spark = LOCAL.withEngine(engine);
    }

    /** Runs {@code step} on a fresh read of {@code file} with the local engine and with Spark; asserts the same bits. */
    private static AnnData same(String file, BiFunction<AnnData, Streaming, Mono<AnnData>> step) {
        AnnData local = step.apply(read(file), LOCAL).block();
        AnnData remote = step.apply(read(file), spark).block();
        assertSameBits(local, remote);
        return remote;
    }

    static AnnData read(String file) {
        return withQcVariable(H5ad.read(TestFixtures.path(file)));
    }

    /** Marks every seventh gene as a qc variable "mt". */
    static AnnData withQcVariable(AnnData data) {
        boolean[] mt = new boolean[data.nVars()];
        for (int g = 0; g < mt.length; g += 7) {
            mt[g] = true;
        }
        data.var().put("mt", ArrayColumn.of(mt));
        return data;
    }

    static final PreprocessOptions PREPROCESS =
            PreprocessOptions.defaults().withQc(QcMetricsOptions.defaults().withQcVars("mt"));

    @ParameterizedTest
    @ValueSource(strings = {"synth-3k-b.h5ad", "synth-3k.int64.h5ad", "synth-3k.csc-gzip.h5ad"})
    void pipelineOfPreprocessHvgAndPcaIsTheSameBits(String file) {
        AnnData out = same(
                file,
                (d, s) -> Pp.pipeline(
                        d,
                        PREPROCESS,
                        HighlyVariableGenesOptions.defaults(),
                        PcaOptions.defaults().withNComps(20),
                        s));
        assertTrue(out.obs().has("pct_counts_mt")
                && out.var().has("highly_variable")
                && out.varm().containsKey("PCs"));
        assertTrue(out.x().plan(SMALL).size() > 2 * Reducer.RUN_SEGMENTS * Reducer.SEGMENT_BLOCKS, "several runs");
    }

    @Test
    void qcMetricsAreTheSameBits() {
        same(
                "synth-3k.int64.h5ad",
                (d, s) -> Pp.calculateQcMetrics(
                        d, QcMetricsOptions.defaults().withQcVars("mt").withLog1p(true), s));
    }

    @Test
    void normalizeTotalExcludingHighlyExpressedThenLog1pIsTheSameBits() {
        same(
                "synth-3k-b.h5ad",
                (d, s) -> Pp.normalizeTotal(
                                d,
                                NormalizeTotalOptions.defaults()
                                        .excludingHighlyExpressed(0.05)
                                        .withKeyAdded("norm"),
                                s)
                        .flatMap(n -> Pp.log1p(n, Log1pOptions.defaults(), s)));
    }

    @Test
    void seuratV3AndBatchedSeuratAreTheSameBits() {
        same(
                "synth-3k.int64.h5ad",
                (d, s) -> Pp.highlyVariableGenes(
                        d,
                        HighlyVariableGenesOptions.defaults()
                                .withFlavor(HighlyVariableGenesOptions.Flavor.SEURAT_V3)
                                .withNTopGenes(300),
                        s));
        same(
                "synth-3k.int64.h5ad",
                (d, s) -> Pp.preprocess(d, PREPROCESS, s)
                        .flatMap(p -> Pp.highlyVariableGenes(
                                p, HighlyVariableGenesOptions.defaults().withBatchKey("batch"), s)));
    }

    /** Pseudobulk means of log-normalized values: fractional sums, whose bits depend on the order of additions. */
    @Test
    void pseudobulkOfLogNormalizedValuesIsTheSameBits() {
        AnnData[] results = new AnnData[2];
        Streaming[] engines = {LOCAL, spark};
        for (int i = 0; i < 2; i++) {
            Streaming s = engines[i];
            results[i] = Pp.preprocess(read("synth-3k.int64.h5ad"), PREPROCESS, s)
                    .flatMap(d -> Pp.pseudobulk(
                            d, PseudobulkOptions.of("sample", "cell_type").withMode(PseudobulkOptions.Mode.MEAN), s))
                    .block();
        }
        assertSameBits(results[0], results[1]);
        assertTrue(results[1].nObs() > 1);
    }

    @Test
    void pipelineOnAConcatenationOfThreeFilesIsTheSameBits() {
        BiFunction<AnnData, Streaming, Mono<AnnData>> pipeline = (d, s) -> Pp.pipeline(
                d,
                PREPROCESS,
                HighlyVariableGenesOptions.defaults(),
                PcaOptions.defaults().withNComps(10),
                s);
        AnnData[] results = new AnnData[2];
        Streaming[] engines = {LOCAL, spark};
        for (int i = 0; i < 2; i++) {
            AnnData all = Pp.concat(
                            List.of(
                                    read("synth-3k-b.h5ad"),
                                    read("synth-3k.int64.h5ad"),
                                    read("synth-3k.csc-gzip.h5ad")),
                            ConcatOptions.defaults().withIndexUnique("-"))
                    .block();
            results[i] = pipeline.apply(withQcVariable(all), engines[i]).block();
        }
        assertSameBits(results[0], results[1]);
        assertEquals(7000, results[1].nObs());
    }

    @Test
    void tasksAreTheMergeRuns() {
        assertEquals(
                List.of("0-256", "256-512", "512-600"),
                Reducer.runs(600).stream().map(r -> r[0] + "-" + r[1]).toList());
    }
}
