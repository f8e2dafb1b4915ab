package io.scflux.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.Threads;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

/**
 * scanpy's warnings, for every step that gives one, over threads: steps that expect counts warn once on X holding a
 * value that is not a count, naming the first such cell and gene in row order; log1p warns on X already logged.
 */
class StepWarningsTest {

    /** Steps that expect raw counts, with the name scanpy's warning gives them. */
    enum CountsStep {
        QC("`calculate_qc_metrics`", (d, s) -> Pp.calculateQcMetrics(d, QcMetricsOptions.defaults()
                .withPercentTop(1), s)),
        NORMALIZE("`normalize_total`", (d, s) -> Pp.normalizeTotal(d, NormalizeTotalOptions.defaults(), s)),
        NORMALIZE_EXCLUDING("`normalize_total`", (d, s) -> Pp.normalizeTotal(d, NormalizeTotalOptions.defaults()
                .excludingHighlyExpressed(0.5), s)),
        PREPROCESS("`calculate_qc_metrics`", (d, s) -> Pp.preprocess(d, new PreprocessOptions(
                QcMetricsOptions.defaults().withPercentTop(1), NormalizeTotalOptions.defaults(),
                Log1pOptions.defaults()), s)),
        SEURAT_V3("`flavor='seurat_v3'`", (d, s) -> Pp.highlyVariableGenes(d, HighlyVariableGenesOptions.defaults()
                .withFlavor(HighlyVariableGenesOptions.Flavor.SEURAT_V3).withNTopGenes(2), s));

        final String name;
        final BiFunction<AnnData, Streaming, Mono<AnnData>> run;

        CountsStep(String name, BiFunction<AnnData, Streaming, Mono<AnnData>> run) {
            this.name = name;
            this.run = run;
        }
    }

    /** 60 cells x 20 genes of counts, 3 genes a cell; {@code fractional} puts 2.5 at cells 37 and 52. */
    private static AnnData data(boolean fractional) {
        CsrMatrix.Builder b = CsrMatrix.builder(20);
        for (int r = 0; r < 60; r++) {
            float odd = fractional && (r == 37 || r == 52) ? 2.5f : 3;
            int[] genes = {r % 20, (r + 7) % 20, (r + 13) % 20};
            float[] byGene = new float[20];
            byGene[genes[0]] = 1 + r % 4;
            byGene[genes[1]] = odd;
            byGene[genes[2]] = 2;
            java.util.Arrays.sort(genes);
            b.addRow(genes, new float[] {byGene[genes[0]], byGene[genes[1]], byGene[genes[2]]});
        }
        String[] cells = new String[60];
        for (int i = 0; i < cells.length; i++) {
            cells[i] = "cell" + i;
        }
        String[] genes = new String[20];
        for (int g = 0; g < genes.length; g++) {
            genes[g] = String.valueOf((char) ('A' + g));
        }
        return new AnnData(b.build(), new Frame(cells), new Frame(genes));
    }

    private static List<String> run(CountsStep step, boolean fractional, Threads threads) {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Streaming s = new Streaming(PlanTarget.ofChunkNnz(12), threads.execution()).withWarnings(warnings::add);
        step.run.apply(data(fractional), s).block();
        return warnings;
    }

    @ParameterizedTest
    @EnumSource(CountsStep.class)
    void countsGiveNoWarning(CountsStep step) {
        for (Threads t : Threads.values()) {
            assertEquals(List.of(), run(step, false, t), t.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(CountsStep.class)
    void aFractionalValueIsNamedOnceWhateverTheThreads(CountsStep step) {
        for (Threads t : Threads.values()) {
            // cell 37 holds genes 4, 10 and 17; (37 + 7) % 20 = 4, its first, holds 2.5
            assertEquals(List.of(step.name + " expects raw count data, but non-integers were found (2.5 at cell "
                    + "'cell37', gene 'E')"), run(step, true, t), t.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void normalizingAnEmptyCellWarnsAsScanpy(Threads threads) {
        CsrMatrix x = CsrMatrix.builder(3).addRow(new int[] {0}, new float[] {2}).addRow(new int[0], new float[0])
                .addRow(new int[] {1, 2}, new float[] {1, 1}).build();
        for (boolean fused : new boolean[] {false, true}) {
            List<String> warnings = new CopyOnWriteArrayList<>();
            Streaming s = new Streaming(PlanTarget.ofChunkNnz(1), threads.execution()).withWarnings(warnings::add);
            (fused ? CountsStep.PREPROCESS : CountsStep.NORMALIZE).run.apply(AnnData.of(x), s).block();
            assertEquals(List.of("Some cells have zero counts"), warnings, fused ? "preprocess" : "normalize");
        }
    }

    @ParameterizedTest
    @EnumSource(Threads.class)
    void log1pWarnsOnDataAlreadyLogged(Threads threads) {
        List<String> warnings = new CopyOnWriteArrayList<>();
        Streaming s = new Streaming(PlanTarget.ofChunkNnz(12), threads.execution()).withWarnings(warnings::add);
        AnnData once = Pp.log1p(data(false), Log1pOptions.defaults(), s).block();
        assertEquals(List.of(), warnings);
        Pp.log1p(once, Log1pOptions.defaults(), s).block();
        assertEquals(List.of("adata.X seems to be already log-transformed."), warnings);
    }
}
