/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.Threads;
import io.scflux.ops.filter.FilterOptions;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.markers.RankGenesGroups;
import io.scflux.ops.markers.RankGenesGroupsOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.pseudobulk.PseudobulkOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.scale.ScaleOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The contract every step (of {@link Pp}, and rank_genes_groups) keeps, as reactor-core runs every operator through
 * one scenario base: a step is a cold Mono that leaves the container it is given as it was, gives the same result when
 * subscribed twice (retry, repeat, a second block), and passes an upstream failure (a block read failing) on as its
 * error.
 */
class StepContractTest {

    private static final Streaming STREAMING = new Streaming(PlanTarget.ofChunkNnz(256), Threads.TWO.execution());

    /** Every step, with options that fit the container of {@link #input}. */
    enum Step {
        QC((d, s) -> Pp.calculateQcMetrics(
                d, QcMetricsOptions.defaults().withQcVars("mt").withPercentTop(5), s)),
        NORMALIZE(
                (d, s) -> Pp.normalizeTotal(d, NormalizeTotalOptions.defaults().withKeyAdded("f"), s)),
        LOG1P((d, s) -> Pp.log1p(d, Log1pOptions.defaults(), s)),
        PREPROCESS((d, s) -> Pp.preprocess(
                d,
                new PreprocessOptions(
                        QcMetricsOptions.defaults().withQcVars("mt").withPercentTop(5),
                        NormalizeTotalOptions.defaults(),
                        Log1pOptions.defaults()),
                s)),
        FILTER_CELLS((d, s) -> Pp.filterCells(d, FilterOptions.minGenes(10), s)),
        FILTER_GENES((d, s) -> Pp.filterGenes(d, FilterOptions.minCells(10), s)),
        HVG_SEURAT_V3((d, s) -> Pp.highlyVariableGenes(
                d,
                HighlyVariableGenesOptions.defaults()
                        .withFlavor(HighlyVariableGenesOptions.Flavor.SEURAT_V3)
                        .withNTopGenes(10),
                s)),
        PIPELINE((d, s) -> Pp.pipeline(
                d,
                new PreprocessOptions(
                        QcMetricsOptions.defaults().withQcVars("mt").withPercentTop(5),
                        NormalizeTotalOptions.defaults(),
                        Log1pOptions.defaults()),
                HighlyVariableGenesOptions.defaults().withNTopGenes(20),
                PcaOptions.defaults().withNComps(3),
                s)),
        PCA((d, s) -> Pp.pca(d, PcaOptions.defaults().withNComps(3), s)),
        SCALE((d, s) -> Pp.scale(d, new ScaleOptions(true, 10.0), s)),
        PSEUDOBULK((d, s) -> Pp.pseudobulk(d, PseudobulkOptions.of("sample", "group"), s)),
        RANK_GENES_GROUPS((d, s) -> RankGenesGroups.rankGenesGroups(d, RankGenesGroupsOptions.of("group"), s)),
        RANK_GENES_GROUPS_WILCOXON((d, s) -> RankGenesGroups.rankGenesGroups(
                d, RankGenesGroupsOptions.of("group").withMethod(RankGenesGroupsOptions.Method.WILCOXON), s));

        final BiFunction<AnnData, Streaming, Mono<AnnData>> run;

        Step(BiFunction<AnnData, Streaming, Mono<AnnData>> run) {
            this.run = run;
        }
    }

    /** 120 cells x 60 genes of counts (whole numbers), obs sample and group, var mt, uns one entry. */
    private static AnnData input(BlockSource x) {
        String[] samples = new String[120];
        String[] groups = new String[120];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = "S" + i % 3;
            groups[i] = "G" + i % 4;
        }
        AnnData a = AnnData.of(x);
        a.obs().put("sample", CategoricalColumn.fromValues(samples));
        a.obs().put("group", CategoricalColumn.fromValues(groups));
        boolean[] mt = new boolean[60];
        mt[0] = mt[1] = true;
        a.var().put("mt", new io.scflux.core.anndata.ArrayColumn(DenseArray.of(mt)));
        a.uns().put("note", DenseArray.scalar("input"));
        return a;
    }

    private static CsrMatrix counts() {
        CsrMatrix r = Matrices.random(120, 60, 0.3, 17);
        CsrMatrix.Builder b = CsrMatrix.builder(60);
        for (int i = 0; i < r.nRows(); i++) {
            int n = (int) (r.indptr(i + 1) - r.indptr(i));
            int[] idx = new int[n];
            float[] val = new float[n];
            for (int k = 0; k < n; k++) {
                idx[k] = r.index(r.indptr(i) + k);
                val[k] = 1 + (float) Math.floor(Math.abs(r.value(r.indptr(i) + k)) * 9);
            }
            b.addRow(idx, val);
        }
        return b.build();
    }

    /** What can be compared of a container: shape, obs/var columns and their values, X's entries, keys, arrays. */
    private static Map<String, Object> contents(AnnData a) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("shape", a.nObs() + " x " + a.nVars());
        c.put("obs", List.copyOf(a.obs().columns().values()));
        c.put("obs names", a.obs().columns().keySet().toString());
        c.put("var", List.copyOf(a.var().columns().values()));
        c.put("var names", a.var().columns().keySet().toString());
        c.put("uns", a.uns().keySet().toString());
        c.put("obsm", a.obsm().keySet().toString());
        c.put("varm", a.varm().keySet().toString());
        c.put("layers", a.layers().keySet().toString());
        if (a.x() != null) {
            CsrMatrix x = CsrMatrix.collect(a.x().blocks(a.x().plan(PlanTarget.ofChunkNnz(256))), a.nVars())
                    .block(Duration.ofSeconds(30));
            List<Float> values = new ArrayList<>();
            for (long k = 0; k < x.nnz(); k++) {
                values.add(x.value(k));
            }
            c.put("X", values);
        }
        for (Map.Entry<String, Object> e : a.obsm().entrySet()) {
            c.put(
                    "obsm " + e.getKey(),
                    e.getValue() instanceof BlockSource s ? DenseArray.materialize(s) : e.getValue());
        }
        return c;
    }

    @ParameterizedTest
    @EnumSource(Step.class)
    void leavesItsInputAsItWasAndGivesTheSameResultTwice(Step step) {
        CsrMatrix x = counts();
        AnnData in = input(x);
        Map<String, Object> before = contents(in);
        Mono<AnnData> mono = step.run.apply(in, STREAMING);
        AnnData first = mono.block(Duration.ofSeconds(60));
        AnnData second = mono.block(Duration.ofSeconds(60));
        assertNotSame(in, first, "a new container");
        assertNotSame(first, second, "each subscription makes its own");
        assertEquals(before, contents(in), "the input is left as it was");
        assertSame(x, in.x(), "the input keeps its X");
        assertEquals(contents(first), contents(second), "subscribed twice, the same result");
    }

    @ParameterizedTest
    @EnumSource(Step.class)
    void aFailingReadIsTheStepsError(Step step) {
        AnnData in = input(CountingSource.failingAt(counts(), 0)); // block 0: pseudobulk reads one large block
        StepVerifier.create(step.run.apply(in, STREAMING).flatMap(out -> Mono.fromCallable(() -> contents(out))))
                .expectErrorSatisfies(
                        e -> assertTrue(String.valueOf(e.getMessage()).contains("injected failure"), String.valueOf(e)))
                .verify(Duration.ofSeconds(60));
    }

    @ParameterizedTest
    @EnumSource(Step.class)
    void aCancelledStepReadsNoFurther(Step step) throws InterruptedException {
        CountingSource x = CountingSource.of(counts());
        AnnData in = input(x);
        StepVerifier.create(step.run.apply(in, STREAMING)).thenCancel().verify(Duration.ofSeconds(10));
        Thread.sleep(50);
        int reads = x.reads.get();
        Thread.sleep(200);
        assertEquals(reads, x.reads.get(), "no read after the cancel settled");
        assertEquals(x.opened.get(), x.closed.get(), "every reader opened was closed");
    }
}
