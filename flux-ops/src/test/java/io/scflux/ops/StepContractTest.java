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
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The contract every step of the {@link StepCatalog} (and preprocess and the pipeline, which compose them) keeps, as reactor-core runs every operator through
 * one scenario base: a step is a cold Mono that leaves the container it is given as it was, gives the same result when
 * subscribed twice (retry, repeat, a second block), and passes an upstream failure (a block read failing) on as its
 * error.
 */
class StepContractTest {

    private static final Streaming STREAMING = new Streaming(PlanTarget.ofChunkNnz(256), Threads.TWO.execution());

    /**
     * The values of each catalog step's parameters that fit the container of {@link #input} (its defaults
     * otherwise), one map per case; every step of {@link StepCatalog} must have its cases here.
     */
    private static final Map<String, List<Map<String, Object>>> ARGUMENTS = Map.ofEntries(
            Map.entry(
                    "concat",
                    List.of(
                            Map.of("keys", List.of("a", "b"), "label", "batch", "index_unique", "-"),
                            Map.of("join", "outer", "fill_value", 1.0))),
            Map.entry("calculate_qc_metrics", List.of(Map.of("qc_vars", List.of("mt"), "percent_top", List.of(5)))),
            Map.entry("filter_cells", List.of(Map.of("min_genes", 10))),
            Map.entry("filter_genes", List.of(Map.of("min_cells", 10))),
            Map.entry("normalize_total", List.of(Map.of("key_added", "f"))),
            Map.entry("log1p", List.of(Map.of())),
            Map.entry("highly_variable_genes", List.of(Map.of("flavor", "seurat_v3", "n_top_genes", 10))),
            Map.entry("scale", List.of(Map.of("max_value", 10.0))),
            Map.entry("pca", List.of(Map.of("n_comps", 3))),
            Map.entry(
                    "neighbors",
                    List.of(Map.of("n_neighbors", 5), Map.of("n_neighbors", 5, "method", "gauss", "use_rep", "X"))),
            Map.entry("leiden", List.of(Map.of("obsp", "ring"))),
            Map.entry("umap", List.of(Map.of("maxiter", 20, "neighbors_key", "ring_neighbors"))),
            Map.entry(
                    "rank_genes_groups",
                    List.of(Map.of("groupby", "group"), Map.of("groupby", "group", "method", "wilcoxon"))),
            Map.entry("pseudobulk", List.of(Map.of("sample_col", "sample", "groups_col", "group"))));

    /** A step to run: a catalog step bound to its arguments, or a composition of steps the catalog does not list. */
    record Step(String name, BiFunction<AnnData, Streaming, Mono<AnnData>> run) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Step> steps() {
        PreprocessOptions preprocess = new PreprocessOptions(
                QcMetricsOptions.defaults().withQcVars("mt").withPercentTop(5),
                NormalizeTotalOptions.defaults(),
                Log1pOptions.defaults());
        // a step that combines containers (concat) runs on two of the one given
        Stream<Step> catalog = StepCatalog.steps().stream()
                .flatMap(s -> ARGUMENTS.get(s.function()).stream()
                        .map(a -> new Step(s.function() + " " + a, run(s, Arguments.of(a)))));
        return Stream.concat(
                catalog,
                Stream.of(
                        new Step("preprocess", (d, s) -> Pp.preprocess(d, preprocess, s)),
                        new Step(
                                "pipeline",
                                (d, s) -> Pp.pipeline(
                                        d,
                                        preprocess,
                                        HighlyVariableGenesOptions.defaults().withNTopGenes(20),
                                        PcaOptions.defaults().withNComps(3),
                                        s))));
    }

    private static BiFunction<AnnData, Streaming, Mono<AnnData>> run(CatalogStep step, Arguments arguments) {
        if (!step.combines()) {
            return step.bind(arguments);
        }
        CatalogStep.Combined combined = step.combine(arguments);
        return (data, streaming) -> Mono.fromCallable(() -> combined.apply(List.of(data, data)));
    }

    @Test
    void everyCatalogStepHasItsCases() {
        assertEquals(
                StepCatalog.steps().stream().map(CatalogStep::function).collect(Collectors.toSet()),
                ARGUMENTS.keySet());
    }

    /**
     * 120 cells x 60 genes of counts (whole numbers), obs sample and group, var mt, uns one entry, obsm X_pca (3
     * components) and obsp ring (each cell joined to the next, weight 1) for the graph steps.
     */
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
        float[] pcs = new float[120 * 3];
        for (int i = 0; i < pcs.length; i++) {
            pcs[i] = (float) Math.sin(i * 0.37);
        }
        a.putObsm("X_pca", DenseArray.of(io.scflux.core.DType.FLOAT32, pcs, 120, 3));
        CsrMatrix.Builder ring = CsrMatrix.builder(120);
        for (int i = 0; i < 120; i++) {
            int prev = (i + 119) % 120;
            int next = (i + 1) % 120;
            ring.addRow(new int[] {Math.min(prev, next), Math.max(prev, next)}, new float[] {1f, 1f});
        }
        a.putObsp("ring", ring.build());
        a.uns().put("ring_neighbors", new LinkedHashMap<>(Map.of("connectivities_key", "ring")));
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
    @MethodSource("steps")
    void leavesItsInputAsItWasAndGivesTheSameResultTwice(Step step) {
        CsrMatrix x = counts();
        AnnData in = input(x);
        Map<String, Object> before = contents(in);
        Mono<AnnData> mono = step.run().apply(in, STREAMING);
        AnnData first = mono.block(Duration.ofSeconds(60));
        AnnData second = mono.block(Duration.ofSeconds(60));
        assertNotSame(in, first, "a new container");
        assertNotSame(first, second, "each subscription makes its own");
        assertEquals(before, contents(in), "the input is left as it was");
        assertSame(x, in.x(), "the input keeps its X");
        assertEquals(contents(first), contents(second), "subscribed twice, the same result");
    }

    @ParameterizedTest
    @MethodSource("steps")
    void aFailingReadIsTheStepsError(Step step) {
        AnnData in = input(CountingSource.failingAt(counts(), 0)); // block 0: pseudobulk reads one large block
        StepVerifier.create(step.run().apply(in, STREAMING).flatMap(out -> Mono.fromCallable(() -> contents(out))))
                .expectErrorSatisfies(
                        e -> assertTrue(String.valueOf(e.getMessage()).contains("injected failure"), String.valueOf(e)))
                .verify(Duration.ofSeconds(60));
    }

    @ParameterizedTest
    @MethodSource("steps")
    void aCancelledStepReadsNoFurther(Step step) throws InterruptedException {
        CountingSource x = CountingSource.of(counts());
        AnnData in = input(x);
        StepVerifier.create(step.run().apply(in, STREAMING)).thenCancel().verify(Duration.ofSeconds(10));
        Thread.sleep(50);
        int reads = x.reads.get();
        Thread.sleep(200);
        assertEquals(reads, x.reads.get(), "no read after the cancel settled");
        assertEquals(x.opened.get(), x.closed.get(), "every reader opened was closed");
    }
}
