/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.qc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Threads;
import io.scflux.ops.reference.Fractional;
import io.scflux.ops.reference.QcReference;
import io.scflux.ops.reference.Reference;
import io.scflux.ops.reference.Tolerance;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

public class QcMetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final QcMetricsOptions MT = QcMetricsOptions.defaults().withQcVars("mt");

    /** synth-3k with scanpy's var["mt"] = var_names.str.startswith("MT-"). */
    public static AnnData countsWithMt() {
        AnnData data = Reference.counts();
        data.var().put("mt", QcMetrics.genesStartingWith(data.var(), "MT-"));
        return data;
    }

    @Test
    void everyColumnMatchesScanpy() {
        AnnData data =
                QcMetrics.calculate(countsWithMt(), MT, Streaming.DEFAULT).block(WAIT);
        QcReference.assertMatches(data);
        assertEquals(
                13, Arrays.stream(Tolerance.doubles(data.var().column("mt"))).sum(), "13 MT- genes");
    }

    @Test
    void sameBitsWithAnyThreadCount() {
        for (BlockSource x : List.of(Reference.counts().x(), Fractional.matrix(11))) {
            Frame[] first = null;
            for (Threads t : Threads.values()) {
                Streaming s = new Streaming(BlockSize.SMALL.target(), t.execution());
                Frame[] frames = qc(x, s);
                if (first == null) {
                    first = frames;
                } else {
                    Tolerance.assertSameColumns(first[0], frames[0]);
                    Tolerance.assertSameColumns(first[1], frames[1]);
                }
            }
        }
    }

    @Test
    void blockSizesAgreeWithinTolerance() {
        BlockSource x = Fractional.matrix(11);
        Frame[] reference = qc(x, Streaming.DEFAULT);
        for (BlockSize size : BlockSize.values()) {
            Frame[] frames = qc(x, new Streaming(size.target(), Threads.TWO.execution()));
            for (int f = 0; f < 2; f++) {
                for (String name : reference[f].columns().keySet()) {
                    Tolerance.assertClose(
                            Tolerance.doubles(reference[f].column(name)),
                            Tolerance.doubles(frames[f].column(name)),
                            1e-12,
                            size + " " + name);
                }
            }
        }
    }

    /** QC with two qc variables over {@code x}: obs and var. */
    private static Frame[] qc(BlockSource x, Streaming streaming) {
        AnnData data = AnnData.of(x);
        boolean[] even = new boolean[x.nCols()];
        boolean[] first = new boolean[x.nCols()];
        for (int g = 0; g < even.length; g++) {
            even[g] = g % 2 == 0;
            first[g] = g < 7;
        }
        data.var().put("even", ArrayColumn.of(even)).put("first", ArrayColumn.of(first));
        data = QcMetrics.calculate(
                        data,
                        QcMetricsOptions.defaults().withQcVars("even", "first").withPercentTop(5, 50),
                        streaming)
                .block(WAIT);
        return new Frame[] {data.obs(), data.var()};
    }

    /**
     * 4 cells x 5 genes: an empty cell, a cell with a stored zero and fewer nonzeros than the largest rank, a full
     * cell; gene 4 has no counts. Expected values computed here from scanpy's formulas, value by value.
     */
    private static CsrMatrix edgeCases() {
        return CsrMatrix.builder(5)
                .addRow(new int[0], new float[0])
                .addRow(new int[] {0, 2, 3}, new float[] {3, 1, 0})
                .addRow(new int[] {0, 1, 2, 3}, new float[] {2, 5, 1, 4})
                .addRow(new int[] {1}, new float[] {7})
                .build();
    }

    @Test
    void edgeCasesFollowScanpy() {
        for (DType type : List.of(DType.FLOAT32, DType.FLOAT64, DType.INT32)) {
            AnnData data = AnnData.of(edgeCases().withDtype(type));
            data.var().put("qc", ArrayColumn.of(new boolean[] {true, true, false, false, false}));
            data = QcMetrics.calculate(
                            data, new QcMetricsOptions(List.of("qc"), List.of(3, 1), true), Streaming.DEFAULT)
                    .block(WAIT);
            Frame obs = data.obs();
            Frame var = data.var();
            String sum = type == DType.FLOAT32 ? "float32" : type == DType.FLOAT64 ? "float64" : "int64";
            String ratio = type == DType.FLOAT32 ? "float32" : "float64";
            assertEquals(
                    List.of(
                            "n_genes_by_counts",
                            "log1p_n_genes_by_counts",
                            "total_counts",
                            "log1p_total_counts",
                            "pct_counts_in_top_1_genes",
                            "pct_counts_in_top_3_genes",
                            "total_counts_qc",
                            "log1p_total_counts_qc",
                            "pct_counts_qc"),
                    List.copyOf(obs.columns().keySet()));
            assertEquals(sum, obs.column("total_counts").typeName(), type + " total_counts");
            assertEquals(ratio, obs.column("log1p_total_counts").typeName());
            assertEquals(ratio, obs.column("pct_counts_qc").typeName());
            assertEquals(sum, var.column("total_counts").typeName());
            assertEquals("int32", obs.column("n_genes_by_counts").typeName());
            assertEquals("int64", var.column("n_cells_by_counts").typeName());
            // the sums are held in their type; what scanpy derives from them is worked out when read
            for (String derived : List.of(
                    "log1p_n_genes_by_counts",
                    "log1p_total_counts",
                    "pct_counts_in_top_1_genes",
                    "pct_counts_in_top_3_genes",
                    "log1p_total_counts_qc",
                    "pct_counts_qc")) {
                assertTrue(((ArrayColumn) obs.column(derived)).isComputed(), derived);
            }
            for (String sums : List.of("n_genes_by_counts", "total_counts", "total_counts_qc")) {
                assertFalse(((ArrayColumn) obs.column(sums)).isComputed(), sums);
            }

            assertValues(obs, "n_genes_by_counts", 0, 2, 4, 1);
            assertValues(obs, "log1p_n_genes_by_counts", 0, Math.log(3), Math.log(5), Math.log(2));
            assertValues(obs, "total_counts", 0, 4, 12, 7);
            assertValues(obs, "log1p_total_counts", 0, Math.log(5), Math.log(13), Math.log(8));
            // top 1 and top 3 of each row; the 2-value row is padded with a zero: top 3 = 3 + 1 + 0
            assertValues(obs, "pct_counts_in_top_1_genes", Double.NaN, 3.0 / 4 * 100, 5.0 / 12 * 100, 100);
            assertValues(obs, "pct_counts_in_top_3_genes", Double.NaN, 100, 11.0 / 12 * 100, 100);
            assertValues(obs, "total_counts_qc", 0, 3, 7, 7);
            assertValues(obs, "pct_counts_qc", Double.NaN, 75, 7.0 / 12 * 100, 100);
            assertValues(var, "n_cells_by_counts", 2, 2, 2, 1, 0);
            assertValues(var, "total_counts", 5, 12, 2, 4, 0);
            assertValues(var, "mean_counts", 5 / 4.0, 3, 0.5, 1, 0);
            assertValues(var, "log1p_mean_counts", Math.log1p(1.25), Math.log(4), Math.log(1.5), Math.log(2), 0);
            assertValues(var, "pct_dropout_by_counts", 50, 50, 50, 75, 100);
            assertValues(var, "log1p_total_counts", Math.log(6), Math.log(13), Math.log(3), Math.log(5), 0);
        }
    }

    /**
     * Top-n sums against a sort of each row, on rows that leave the whole-count path at any point: large counts,
     * fractions after some whole counts or as the last value, stored zeros; whole-count rows after them must not see what
     * those left behind.
     */
    @Test
    void topSumsOfMixedRowsMatchASortedRow() {
        int genes = 300;
        java.util.Random random = new java.util.Random(7);
        CsrMatrix.Builder x = CsrMatrix.builder(genes);
        List<float[]> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 400; i++) {
            int n = random.nextInt(genes);
            int[] idx = random.ints(0, genes).distinct().limit(n).sorted().toArray();
            float[] val = new float[idx.length];
            int kind = i % 5;
            for (int k = 0; k < val.length; k++) {
                val[k] = 1 + random.nextInt(kind == 1 ? 3000 : 9);
                if (kind == 2 && k > val.length / 2) {
                    val[k] += 0.25f;
                }
                if (kind == 3 && k % 7 == 0) {
                    val[k] = 0;
                }
                if (kind == 4 && k == val.length - 1) {
                    val[k] = 1023.5f;
                }
            }
            x.addRow(idx, val);
            rows.add(val);
        }
        AnnData data = QcMetrics.calculate(
                        AnnData.of(x.build().withDtype(DType.FLOAT64)),
                        QcMetricsOptions.defaults().withPercentTop(1, 10, 50, 200),
                        Streaming.DEFAULT)
                .block(WAIT);
        for (int top : new int[] {1, 10, 50, 200}) {
            double[] expected = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                double[] sorted = new double[Math.max(top, rows.get(i).length)];
                double total = 0;
                for (int k = 0; k < rows.get(i).length; k++) {
                    sorted[k] = rows.get(i)[k];
                    total += rows.get(i)[k];
                }
                Arrays.sort(sorted);
                double sum = 0;
                for (int k = sorted.length - top; k < sorted.length; k++) {
                    sum += sorted[k];
                }
                expected[i] = sum / total * 100;
            }
            Tolerance.assertClose(
                    expected,
                    Tolerance.doubles(data.obs().column("pct_counts_in_top_" + top + "_genes")),
                    1e-12,
                    "top " + top);
        }
    }

    /** A matrix of no cells gets every column, empty, qc variables and ranks included (scanpy's shapes). */
    @Test
    void noCellsGiveEmptyColumns() {
        AnnData data = AnnData.of(CsrMatrix.builder(5).build());
        data.var().put("qc", ArrayColumn.of(new boolean[] {true, true, false, false, false}));
        data = QcMetrics.calculate(data, new QcMetricsOptions(List.of("qc"), List.of(3, 1), true), Streaming.DEFAULT)
                .block(WAIT);
        for (String c : List.of(
                "n_genes_by_counts", "total_counts", "pct_counts_in_top_3_genes", "total_counts_qc", "pct_counts_qc")) {
            assertEquals(0, data.obs().column(c).size(), c);
        }
        assertValues(data.var(), "n_cells_by_counts", 0, 0, 0, 0, 0);
    }

    private static void assertValues(Frame frame, String column, double... expected) {
        double tol = frame.column(column).typeName().equals("float32") ? 1e-7 : 1e-15;
        Tolerance.assertClose(expected, Tolerance.doubles(frame.column(column)), tol, column);
    }

    @Test
    void nothingHappensBeforeSubscriptionAndNothingIsAddedOnError() {
        CountingSource x = CountingSource.of(edgeCases());
        AnnData data = AnnData.of(x);
        var qc = QcMetrics.calculate(data, QcMetricsOptions.defaults().withPercentTop(2), Streaming.DEFAULT);
        assertEquals(0, x.opened.get(), "no reader before subscription");
        assertTrue(data.obs().columns().isEmpty());
        StepVerifier.create(qc)
                .assertNext(out -> assertTrue(out.obs().has("n_genes_by_counts")))
                .verifyComplete();
        assertEquals(1, x.opened.get(), "one pass");
        assertTrue(data.obs().columns().isEmpty(), "the input is left as it was");

        AnnData failing = AnnData.of(CountingSource.failingAt(edgeCases(), 1));
        StepVerifier.create(QcMetrics.calculate(
                        failing,
                        QcMetricsOptions.defaults().withPercentTop(2),
                        new Streaming(BlockSize.ONE_ROW.target(), Threads.TWO.execution())))
                .expectErrorMessage("injected failure at block 1")
                .verify(WAIT);
        assertTrue(failing.obs().columns().isEmpty() && failing.var().columns().isEmpty(), "no partial columns");
    }

    @Test
    void badParametersArriveAsOnError() {
        AnnData data = AnnData.of(edgeCases());
        data.var().put("name", ArrayColumn.of(new String[] {"a", "b", "c", "d", "e"}));
        StepVerifier.create(QcMetrics.calculate(data, QcMetricsOptions.defaults(), Streaming.DEFAULT))
                .expectErrorMessage("percent_top rank 50 is more than the 5 genes")
                .verify(WAIT);
        StepVerifier.create(QcMetrics.calculate(
                        data, QcMetricsOptions.defaults().withPercentTop(1).withQcVars("mt"), Streaming.DEFAULT))
                .expectErrorMatches(e -> e.getMessage().startsWith("qc variable mt is not a var column"))
                .verify(WAIT);
        StepVerifier.create(QcMetrics.calculate(
                        data, QcMetricsOptions.defaults().withPercentTop(1).withQcVars("name"), Streaming.DEFAULT))
                .expectErrorMessage("qc variable name must be a bool var column, found object")
                .verify(WAIT);
        assertFalse(data.obs().has("n_genes_by_counts"));
    }

    @Test
    void genesStartingWithIsStartswith() {
        Frame var = new Frame(new String[] {"MT-CO1", "mt-co2", "XMT-1", "MT-"});
        assertEquals(
                DenseArray.of(new boolean[] {true, false, false, true}),
                ((ArrayColumn) QcMetrics.genesStartingWith(var, "MT-")).values());
    }
}
