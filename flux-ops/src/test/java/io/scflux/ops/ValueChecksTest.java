/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.scflux.core.InvalidValueException;
import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.Threads;
import io.scflux.ops.hvg.HighlyVariableGenesOptions;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.pca.PcaOptions;
import io.scflux.ops.pseudobulk.PseudobulkOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.scale.ScaleOptions;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

/**
 * What each step does with values it cannot take, over threads: steps on raw counts refuse a negative, NaN or infinite
 * value and warn once, as scanpy, on a fractional one; steps on normalized data refuse a NaN or infinite value and take
 * negative ones. The value named is always the first in row order (cell 37, whose block comes after others read in
 * parallel); log1p warns on X already logged, normalize_total on a cell without counts.
 */
class ValueChecksTest {

    /** Steps that expect raw counts, with the name scanpy's messages give them. */
    enum CountsStep {
        QC(
                "`calculate_qc_metrics`",
                (d, s) -> Pp.calculateQcMetrics(d, QcMetricsOptions.defaults().withPercentTop(1), s)),
        NORMALIZE("`normalize_total`", (d, s) -> Pp.normalizeTotal(d, NormalizeTotalOptions.defaults(), s)),
        NORMALIZE_EXCLUDING(
                "`normalize_total`",
                (d, s) -> Pp.normalizeTotal(d, NormalizeTotalOptions.defaults().excludingHighlyExpressed(0.5), s)),
        PREPROCESS(
                "`calculate_qc_metrics`",
                (d, s) -> Pp.preprocess(
                        d,
                        new PreprocessOptions(
                                QcMetricsOptions.defaults().withPercentTop(1),
                                NormalizeTotalOptions.defaults(),
                                Log1pOptions.defaults()),
                        s)),
        SEURAT_V3(
                "`flavor='seurat_v3'`",
                (d, s) -> Pp.highlyVariableGenes(
                        d,
                        HighlyVariableGenesOptions.defaults()
                                .withFlavor(HighlyVariableGenesOptions.Flavor.SEURAT_V3)
                                .withNTopGenes(2),
                        s)),
        PSEUDOBULK("`pseudobulk`", (d, s) -> Pp.pseudobulk(d, PseudobulkOptions.of("sample", "group"), s));

        final String name;
        final BiFunction<AnnData, Streaming, Mono<AnnData>> run;

        CountsStep(String name, BiFunction<AnnData, Streaming, Mono<AnnData>> run) {
            this.name = name;
            this.run = run;
        }
    }

    /** Steps that expect normalized data: any finite value. */
    enum FiniteStep {
        HVG_SEURAT(
                "`highly_variable_genes`",
                (d, s) -> Pp.highlyVariableGenes(
                        d, HighlyVariableGenesOptions.defaults().withNTopGenes(3), s)),
        HVG_CELL_RANGER(
                "`highly_variable_genes`",
                (d, s) -> Pp.highlyVariableGenes(
                        d,
                        HighlyVariableGenesOptions.defaults()
                                .withFlavor(HighlyVariableGenesOptions.Flavor.CELL_RANGER)
                                .withNTopGenes(3),
                        s)),
        PCA_EXACT("`pca`", (d, s) -> Pp.pca(d, PcaOptions.defaults().withNComps(2), s)),
        PCA_RANDOMIZED(
                "`pca`",
                (d, s) -> Pp.pca(d, PcaOptions.defaults().withNComps(2).withSolver(PcaOptions.Solver.RANDOMIZED), s)),
        SCALE("`scale`", (d, s) -> Pp.scale(d, new ScaleOptions(true, null), s));

        final String name;
        final BiFunction<AnnData, Streaming, Mono<AnnData>> run;

        FiniteStep(String name, BiFunction<AnnData, Streaming, Mono<AnnData>> run) {
            this.name = name;
            this.run = run;
        }
    }

    /**
     * 60 cells x 20 genes, 3 genes a cell: gene (r + 7) % 20 of cell r holds 3, and {@code odd} instead in cells 37
     * and 52 (cell 37's first gene, E). obs sample and group for pseudobulk.
     */
    private static AnnData data(float odd) {
        CsrMatrix.Builder b = CsrMatrix.builder(20);
        for (int r = 0; r < 60; r++) {
            int[] genes = {r % 20, (r + 7) % 20, (r + 13) % 20};
            float[] byGene = new float[20];
            byGene[genes[0]] = 1 + r % 4;
            byGene[genes[1]] = r == 37 || r == 52 ? odd : 3;
            byGene[genes[2]] = 2;
            Arrays.sort(genes);
            b.addRow(genes, new float[] {byGene[genes[0]], byGene[genes[1]], byGene[genes[2]]});
        }
        String[] cells = new String[60];
        String[] samples = new String[60];
        String[] groups = new String[60];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = "cell" + i;
            samples[i] = "S" + i % 3;
            groups[i] = "G" + i % 2;
        }
        String[] genes = new String[20];
        for (int g = 0; g < genes.length; g++) {
            genes[g] = String.valueOf((char) ('A' + g));
        }
        Frame obs = new Frame(cells);
        obs.put("sample", CategoricalColumn.fromValues(samples));
        obs.put("group", CategoricalColumn.fromValues(groups));
        return new AnnData(b.build(), obs, new Frame(genes));
    }

    private static List<String> run(BiFunction<AnnData, Streaming, Mono<AnnData>> step, float odd, Threads threads) {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Streaming s = new Streaming(PlanTarget.ofChunkNnz(12), threads.execution()).withWarnings(warnings::add);
        step.apply(data(odd), s).block();
        return warnings;
    }

    /** Small counts, and whole ones too large for int (QC takes another path for a row holding such a count). */
    @ParameterizedTest
    @EnumSource(CountsStep.class)
    void countsGiveNoWarning(CountsStep step) {
        for (float count : new float[] {3, 70000, 3e9f}) {
            for (Threads t : Threads.values()) {
                assertEquals(List.of(), run(step.run, count, t), count + " " + t);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = CountsStep.class, mode = EnumSource.Mode.EXCLUDE, names = "PSEUDOBULK")
    void aFractionalCountIsNamedOnceWhateverTheThreads(CountsStep step) {
        for (Threads t : Threads.values()) {
            assertEquals(
                    List.of(step.name + " expects raw count data, but non-integers were found (2.5 at cell "
                            + "'cell37', gene 'E')"),
                    run(step.run, 2.5f, t),
                    t.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(CountsStep.class)
    void aNegativeNanOrInfiniteCountIsRefusedNamingTheFirst(CountsStep step) {
        for (float odd : new float[] {-1, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY}) {
            for (Threads t : Threads.values()) {
                InvalidValueException e = assertThrows(InvalidValueException.class, () -> run(step.run, odd, t));
                assertEquals(
                        "X holds " + odd + " at cell 'cell37', gene 'E': " + step.name + " expects raw counts, "
                                + "finite and not negative",
                        e.getMessage(),
                        t.toString());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(FiniteStep.class)
    void aNanOrInfiniteValueIsRefusedNamingTheFirst(FiniteStep step) {
        for (float odd : new float[] {Float.NaN, Float.POSITIVE_INFINITY}) {
            for (Threads t : Threads.values()) {
                InvalidValueException e = assertThrows(InvalidValueException.class, () -> run(step.run, odd, t));
                assertEquals(
                        "X holds " + odd + " at cell 'cell37', gene 'E': " + step.name + " expects finite " + "values",
                        e.getMessage(),
                        t.toString());
            }
        }
    }

    /** (cell_ranger's percentile bins need more distinct gene means than these 20 genes have.) */
    @ParameterizedTest
    @EnumSource(value = FiniteStep.class, mode = EnumSource.Mode.EXCLUDE, names = "HVG_CELL_RANGER")
    void negativeNormalizedValuesAreTaken(FiniteStep step) {
        assertEquals(List.of(), run(step.run, -1.5f, Threads.TWO));
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void normalizingAnEmptyCellWarnsAsScanpy(Threads threads) {
        CsrMatrix x = CsrMatrix.builder(3)
                .addRow(new int[] {0}, new float[] {2})
                .addRow(new int[0], new float[0])
                .addRow(new int[] {1, 2}, new float[] {1, 1})
                .build();
        for (boolean fused : new boolean[] {false, true}) {
            List<String> warnings = new CopyOnWriteArrayList<>();
            Streaming s = new Streaming(PlanTarget.ofChunkNnz(1), threads.execution()).withWarnings(warnings::add);
            (fused ? CountsStep.PREPROCESS : CountsStep.NORMALIZE)
                    .run
                    .apply(AnnData.of(x), s)
                    .block();
            assertEquals(List.of("Some cells have zero counts"), warnings, fused ? "preprocess" : "normalize");
        }
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void log1pWarnsOnDataAlreadyLogged(Threads threads) {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Streaming s = new Streaming(PlanTarget.ofChunkNnz(12), threads.execution()).withWarnings(warnings::add);
        AnnData once = Pp.log1p(data(3), Log1pOptions.defaults(), s).block();
        assertEquals(List.of(), warnings);
        Pp.log1p(once, Log1pOptions.defaults(), s).block();
        assertEquals(List.of("adata.X seems to be already log-transformed."), warnings);
    }
}
