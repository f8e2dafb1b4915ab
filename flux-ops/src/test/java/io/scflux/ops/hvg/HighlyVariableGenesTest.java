/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.StagedSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Selection;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Threads;
import io.scflux.ops.hvg.HighlyVariableGenesOptions.Flavor;
import io.scflux.ops.reference.Reference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link HighlyVariableGenes} against scanpy 1.11.5 on synth-3k (the reference's exact calls), across threads and
 * block plans, and on small data against direct calculations.
 */
@Tag("slow")
class HighlyVariableGenesTest {

    private static final HighlyVariableGenesOptions TOP_500 =
            HighlyVariableGenesOptions.defaults().withNTopGenes(500);

    /** The reference's {@code adata_log1p}: {@code normalize_total(target_sum=1e4)}, {@code log1p}, of the counts. */
    static AnnData log1pNormalized() {
        AnnData counts = Reference.counts();
        return counts.setX(StagedSource.of(counts.x(), HighlyVariableGenesTest::normalizeLog1p));
    }

    /**
     * scanpy's arithmetic, written here so that the test does not depend on the normalize operator: the row total
     * summed in float64 and stored as float32, the size factor {@code total / 1e4} in float32, each value divided by
     * it in float32, then {@code log1p} rounded to float32. numpy's float32 log1p is not correctly rounded, so about
     * 4% of the values differ from the reference's by one ulp.
     */
    static RowBlock normalizeLog1p(RowBlock block) {
        int[] indptr = block.indptr();
        float[] in = block.values();
        float[] out = new float[in.length];
        for (int r = 0; r < block.nRows(); r++) {
            double total = 0;
            for (int k = indptr[r]; k < indptr[r + 1]; k++) {
                total += in[k];
            }
            float factor = (float) total / 1e4f;
            for (int k = indptr[r]; k < indptr[r + 1]; k++) {
                out[k] = (float) Math.log1p(in[k] / factor);
            }
        }
        return block.withValues(out);
    }

    @Test
    void theLog1pInputIsTheReferencesToOneUlp() {
        Reference.Table rows = Reference.csv("normalized_log1p_rows");
        AnnData data = log1pNormalized();
        RowBlock first = data.x().blocks().blockFirst();
        String[] cells = rows.strings("cell");
        double[] genes = rows.doubles("gene_index");
        double[] values = rows.doubles("value");
        int r = 0;
        int k = 0;
        for (int i = 0; i < cells.length; i++) {
            if (i > 0 && !cells[i].equals(cells[i - 1])) {
                r++;
                k = first.indptr()[r];
            }
            assertEquals(data.obs().index()[r], cells[i]);
            assertEquals((int) genes[i], first.indices()[k]);
            float expected = (float) values[i];
            assertTrue(
                    Math.abs(first.values()[k] - expected) <= Math.ulp(expected),
                    "cell " + cells[i] + " gene " + (int) genes[i] + ": " + first.values()[k] + " vs " + expected);
            k++;
        }
    }

    @Test
    void seuratMatchesScanpy() {
        AnnData out = run(log1pNormalized(), TOP_500, Streaming.DEFAULT);
        assertParity("hvg_seurat", out, "means", "dispersions", "dispersions_norm");
        assertDtypes(
                out,
                Map.of(
                        "highly_variable",
                        DType.BOOL,
                        "means",
                        DType.FLOAT64,
                        "dispersions",
                        DType.FLOAT64,
                        "dispersions_norm",
                        DType.FLOAT32));
        assertEquals(
                List.of("gene_ids", "feature_types", "highly_variable", "means", "dispersions", "dispersions_norm"),
                new ArrayList<>(out.var().columns().keySet()));
        assertEquals("seurat", ((DenseArray) ((Map<?, ?>) out.uns().get("hvg")).get("flavor")).get(0));
    }

    @Test
    void cellRangerMatchesScanpy() {
        AnnData out = run(log1pNormalized(), TOP_500.withFlavor(Flavor.CELL_RANGER), Streaming.DEFAULT);
        assertParity("hvg_cell_ranger", out, "means", "dispersions", "dispersions_norm");
        assertEquals("cell_ranger", ((DenseArray) ((Map<?, ?>) out.uns().get("hvg")).get("flavor")).get(0));
    }

    @Test
    void seuratWithBatchesMatchesScanpy() {
        AnnData out = run(log1pNormalized(), TOP_500.withBatchKey("sample"), Streaming.DEFAULT);
        assertParity("hvg_seurat_batch", out, "means", "dispersions", "dispersions_norm", "highly_variable_nbatches");
        Reference.Table ref = Reference.csv("hvg_seurat_batch");
        assertArrayEquals(ref.bools("highly_variable_intersection"), bools(out, "highly_variable_intersection"));
        assertDtypes(
                out,
                Map.of(
                        "highly_variable_nbatches",
                        DType.INT64,
                        "highly_variable_intersection",
                        DType.BOOL,
                        "dispersions_norm",
                        DType.FLOAT32));
    }

    @Test
    void seuratV3MatchesScanpy() {
        AnnData out = run(Reference.counts(), TOP_500.withFlavor(Flavor.SEURAT_V3), Streaming.DEFAULT);
        assertParity("hvg_seurat_v3", out, "means", "variances", "variances_norm");
        assertRanksUpToTies(Reference.csv("hvg_seurat_v3"), out);
        assertDtypes(
                out,
                Map.of(
                        "highly_variable",
                        DType.BOOL,
                        "highly_variable_rank",
                        DType.FLOAT32,
                        "means",
                        DType.FLOAT64,
                        "variances",
                        DType.FLOAT64,
                        "variances_norm",
                        DType.FLOAT64));
        assertEquals(
                List.of(
                        "gene_ids",
                        "feature_types",
                        "highly_variable",
                        "highly_variable_rank",
                        "means",
                        "variances",
                        "variances_norm"),
                new ArrayList<>(out.var().columns().keySet()));
    }

    /** The calls of the parity tests, for the determinism tests. */
    enum Case {
        SEURAT(HighlyVariableGenesTest::log1pNormalized, TOP_500),
        CELL_RANGER(HighlyVariableGenesTest::log1pNormalized, TOP_500.withFlavor(Flavor.CELL_RANGER)),
        SEURAT_BATCH(HighlyVariableGenesTest::log1pNormalized, TOP_500.withBatchKey("sample")),
        SEURAT_CUTOFFS(HighlyVariableGenesTest::log1pNormalized, HighlyVariableGenesOptions.defaults()),
        SEURAT_V3(Reference::counts, TOP_500.withFlavor(Flavor.SEURAT_V3)),
        SEURAT_V3_BATCH(Reference::counts, TOP_500.withFlavor(Flavor.SEURAT_V3).withBatchKey("batch"));

        final Supplier<AnnData> input;
        final HighlyVariableGenesOptions options;

        Case(Supplier<AnnData> input, HighlyVariableGenesOptions options) {
            this.input = input;
            this.options = options;
        }

        AnnData run(Streaming streaming) {
            return HighlyVariableGenesTest.run(input.get(), options, streaming);
        }

        /** The var columns the call adds. */
        List<String> columns() {
            List<String> out = new ArrayList<>(
                    options.flavor() == Flavor.SEURAT_V3
                            ? List.of("highly_variable", "highly_variable_rank", "means", "variances", "variances_norm")
                            : List.of("highly_variable", "means", "dispersions", "dispersions_norm"));
            if (options.batchKey() != null) {
                out.add("highly_variable_nbatches");
            }
            return out;
        }
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void anyThreadCountGivesTheSameBits(Case c) {
        Streaming small = new Streaming(BlockSize.SMALL.target(), Threads.ONE.execution());
        AnnData one = c.run(small);
        for (Threads t : Threads.values()) {
            AnnData other = c.run(new Streaming(BlockSize.SMALL.target(), t.execution()));
            for (String column : c.columns()) {
                DenseArray a = ((ArrayColumn) one.var().column(column)).values();
                DenseArray b = ((ArrayColumn) other.var().column(column)).values();
                assertTrue(a.equals(b), c + " " + column + " with " + t.count() + " threads");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void blockPlansAgreeWithinTolerance(Case c) {
        AnnData expected = c.run(Streaming.DEFAULT);
        for (BlockSize size : List.of(BlockSize.SMALL, BlockSize.TINY)) {
            AnnData other = c.run(new Streaming(size.target(), Threads.TWO.execution()));
            for (String column : c.columns()) {
                DenseArray a = ((ArrayColumn) expected.var().column(column)).values();
                DenseArray b = ((ArrayColumn) other.var().column(column)).values();
                for (int g = 0; g < a.size(); g++) {
                    double x = a.getDouble(g);
                    double y = b.getDouble(g);
                    assertTrue(
                            Double.compare(x, y) == 0 || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x)),
                            c + " " + column + " gene " + g + " with " + size + ": " + x + " vs " + y);
                }
            }
        }
    }

    @Test
    void smallDataMatchesADirectCalculation() {
        float[][] x = smallLogData();
        AnnData data = AnnData.of(dense(x));
        int genes = x[0].length;
        // n_bins=1: one bin, so the normalized dispersion is the z-score of log dispersion over all genes
        data = run(data, HighlyVariableGenesOptions.defaults().withNTopGenes(7).withNBins(1), Streaming.DEFAULT);
        double[] mean = new double[genes];
        double[] logDispersion = new double[genes];
        for (int g = 0; g < genes; g++) {
            double[] v = new double[x.length];
            for (int c = 0; c < x.length; c++) {
                v[c] = (float) Math.expm1(x[c][g]);
            }
            double m = Arrays.stream(v).sum() / v.length;
            double ss = Arrays.stream(v).map(e -> (e - m) * (e - m)).sum();
            mean[g] = Math.log1p(m);
            logDispersion[g] = Math.log(ss / (v.length - 1) / m);
        }
        double avg = Arrays.stream(logDispersion).average().orElseThrow();
        double sd = Math.sqrt(
                Arrays.stream(logDispersion).map(d -> (d - avg) * (d - avg)).sum() / (genes - 1));
        double[] outMeans = doubles(data, "means");
        double[] outDispersions = doubles(data, "dispersions");
        double[] outNorm = doubles(data, "dispersions_norm");
        for (int g = 0; g < genes; g++) {
            assertEquals(mean[g], outMeans[g], 1e-6 * mean[g], "mean of gene " + g);
            assertEquals(logDispersion[g], outDispersions[g], 1e-6 * Math.abs(logDispersion[g]), "gene " + g);
            assertEquals((logDispersion[g] - avg) / sd, outNorm[g], 1e-5, "normalized dispersion of gene " + g);
        }
        Integer[] order = new Integer[genes];
        Arrays.setAll(order, g -> g);
        Arrays.sort(order, (a, b) -> Double.compare(logDispersion[b], logDispersion[a]));
        boolean[] expected = new boolean[genes];
        for (int i = 0; i < 7; i++) {
            expected[order[i]] = true;
        }
        assertArrayEquals(expected, bools(data, "highly_variable"));
    }

    @Test
    void cutoffsSelectTheGenesInsideTheBounds() {
        AnnData data = AnnData.of(dense(smallLogData()));
        HighlyVariableGenesOptions options =
                HighlyVariableGenesOptions.defaults().withNBins(3).withCutoffs(0.2, 2.5, -0.3, 1.5);
        data = run(data, options, Streaming.DEFAULT);
        double[] means = doubles(data, "means");
        double[] norm = doubles(data, "dispersions_norm");
        boolean[] hv = bools(data, "highly_variable");
        int selected = 0;
        for (int g = 0; g < hv.length; g++) {
            double d = Double.isNaN(norm[g]) ? 0 : norm[g];
            assertEquals(means[g] > 0.2 && means[g] < 2.5 && d > -0.3 && d < 1.5, hv[g], "gene " + g);
            selected += hv[g] ? 1 : 0;
        }
        assertTrue(selected > 0 && selected < hv.length, selected + " of " + hv.length + " selected");
    }

    @Test
    void seuratV3WithOneBatchIsSeuratV3WithoutBatches() {
        AnnData plain = run(Reference.counts(), TOP_500.withFlavor(Flavor.SEURAT_V3), Streaming.DEFAULT);
        AnnData oneBatch = Reference.counts();
        String[] same = new String[oneBatch.nObs()];
        Arrays.fill(same, "all");
        oneBatch.obs().put("one", CategoricalColumn.fromValues(same));
        oneBatch = run(oneBatch, TOP_500.withFlavor(Flavor.SEURAT_V3).withBatchKey("one"), Streaming.DEFAULT);
        for (String column :
                List.of("highly_variable", "highly_variable_rank", "means", "variances", "variances_norm")) {
            assertEquals(
                    ((ArrayColumn) plain.var().column(column)).values(),
                    ((ArrayColumn) oneBatch.var().column(column)).values(),
                    column);
        }
        double[] rank = doubles(oneBatch, "highly_variable_rank");
        long[] nBatches = (long[]) ((ArrayColumn) oneBatch.var().column("highly_variable_nbatches"))
                .values()
                .data();
        for (int g = 0; g < rank.length; g++) {
            assertEquals(Double.isNaN(rank[g]) ? 0 : 1, nBatches[g]);
        }
    }

    @Test
    void seuratV3BatchesCombineTheRanksOfEachBatch() {
        // each batch ranked alone (checked against scanpy above), then scanpy's rule: median rank over the batches
        // where the gene is in the top 500, ties to the gene selected in more batches; variances_norm averaged
        AnnData counts = Reference.counts();
        String[] batch = new String[counts.nObs()];
        for (int i = 0; i < batch.length; i++) {
            batch[i] = (String) counts.obs().column("batch").get(i);
        }
        List<double[]> ranks = new ArrayList<>();
        List<double[]> norms = new ArrayList<>();
        for (String b : new String[] {"B1", "B2"}) {
            int[] rows = java.util.stream.IntStream.range(0, batch.length)
                    .filter(i -> batch[i].equals(b))
                    .toArray();
            // a subset keeping all genes shares the container's var: read the columns before the next run
            AnnData one = run(
                    counts.subset(Selection.of(rows), Selection.all()),
                    TOP_500.withFlavor(Flavor.SEURAT_V3),
                    Streaming.DEFAULT);
            ranks.add(doubles(one, "highly_variable_rank"));
            norms.add(doubles(one, "variances_norm"));
        }
        counts = run(counts, TOP_500.withFlavor(Flavor.SEURAT_V3).withBatchKey("batch"), Streaming.DEFAULT);
        double[] rank = doubles(counts, "highly_variable_rank");
        double[] norm = doubles(counts, "variances_norm");
        long[] nBatches = (long[]) ((ArrayColumn) counts.var().column("highly_variable_nbatches"))
                .values()
                .data();
        double[] r1 = ranks.get(0);
        double[] r2 = ranks.get(1);
        double[] n1 = norms.get(0);
        double[] n2 = norms.get(1);
        for (int g = 0; g < rank.length; g++) {
            int k = (Double.isNaN(r1[g]) ? 0 : 1) + (Double.isNaN(r2[g]) ? 0 : 1);
            double median = k == 0 ? Double.NaN : k == 2 ? (r1[g] + r2[g]) / 2 : Double.isNaN(r1[g]) ? r2[g] : r1[g];
            assertEquals(k, nBatches[g], "gene " + g);
            assertEquals(median, rank[g], "gene " + g);
            assertEquals((n1[g] + n2[g]) / 2, norm[g], 1e-12, "gene " + g);
        }
        Integer[] order = new Integer[rank.length];
        Arrays.setAll(order, g -> g);
        Arrays.sort(
                order,
                (a, b) -> Double.isNaN(rank[a]) || Double.isNaN(rank[b])
                        ? Boolean.compare(Double.isNaN(rank[a]), Double.isNaN(rank[b]))
                        : rank[a] != rank[b]
                                ? Double.compare(rank[a], rank[b])
                                : Long.compare(nBatches[b], nBatches[a]));
        boolean[] expected = new boolean[rank.length];
        for (int i = 0; i < 500; i++) {
            expected[order[i]] = true;
        }
        assertArrayEquals(expected, bools(counts, "highly_variable"));
    }

    @Test
    void badInputIsAClearError() {
        IllegalArgumentException noKey = assertThrows(
                IllegalArgumentException.class,
                () -> run(Reference.counts(), TOP_500.withBatchKey("donor"), Streaming.DEFAULT));
        assertTrue(noKey.getMessage().contains("donor"), noKey.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HighlyVariableGenesOptions.Flavor.of("pearson"));
        assertThrows(IllegalArgumentException.class, () -> TOP_500.withNBins(0));
    }

    static AnnData run(AnnData data, HighlyVariableGenesOptions options, Streaming streaming) {
        return HighlyVariableGenes.highlyVariableGenes(data, options, streaming).block();
    }

    /** 50 cells x 30 genes of log1p-like values, genes of different means and spreads, a few zeros. */
    private static float[][] smallLogData() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        float[][] x = new float[50][30];
        for (int c = 0; c < x.length; c++) {
            for (int g = 0; g < x[0].length; g++) {
                double scale = 0.2 + 0.1 * g;
                x[c][g] = rnd.nextInt(6) == 0 ? 0 : (float) Math.log1p(scale * rnd.nextDouble() * (1 + g % 4));
            }
        }
        return x;
    }

    private static io.scflux.core.anndata.CsrMatrix dense(float[][] x) {
        io.scflux.core.anndata.CsrMatrix.Builder b = io.scflux.core.anndata.CsrMatrix.builder(x[0].length);
        for (float[] row : x) {
            int n = 0;
            int[] idx = new int[row.length];
            float[] val = new float[row.length];
            for (int g = 0; g < row.length; g++) {
                if (row[g] != 0) {
                    idx[n] = g;
                    val[n++] = row[g];
                }
            }
            b.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n));
        }
        return b.build();
    }

    private static double[] doubles(AnnData data, String column) {
        DenseArray a = ((ArrayColumn) data.var().column(column)).values();
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.getDouble(i);
        }
        return out;
    }

    private static boolean[] bools(AnnData data, String column) {
        return (boolean[]) ((ArrayColumn) data.var().column(column)).values().data();
    }

    private static void assertDtypes(AnnData out, Map<String, DType> expected) {
        expected.forEach((column, dtype) -> assertEquals(
                dtype, ((ArrayColumn) out.var().column(column)).values().dtype(), column));
    }

    /**
     * The same genes selected, and each column within 1e-5 relative; the normalized dispersions (z-scores near 0
     * for many genes) within 1e-5 of {@code max(|expected|, 1)}. Prints the errors reached.
     */
    static void assertParity(String name, AnnData out, String... columns) {
        Reference.Table ref = Reference.csv(name);
        assertArrayEquals(ref.rowNames(), out.var().index());
        assertArrayEquals(ref.bools("highly_variable"), bools(out, "highly_variable"), name + " selection");
        StringBuilder report =
                new StringBuilder(name + ": same " + countTrue(ref.bools("highly_variable")) + " genes selected");
        for (String c : columns) {
            double[] e = ref.doubles(c);
            double[] a = doubles(out, c);
            double rel = 0;
            double abs = 0;
            for (int g = 0; g < e.length; g++) {
                assertEquals(Double.isNaN(e[g]), Double.isNaN(a[g]), name + " " + c + " NaN at gene " + g);
                if (Double.isNaN(e[g])) {
                    continue;
                }
                double error = Math.abs(a[g] - e[g]);
                abs = Math.max(abs, error);
                rel = Math.max(rel, e[g] == 0 ? (error == 0 ? 0 : Double.POSITIVE_INFINITY) : error / Math.abs(e[g]));
                double scale = c.endsWith("_norm") ? Math.max(Math.abs(e[g]), 1) : Math.abs(e[g]);
                assertTrue(error <= 1e-5 * scale, name + " " + c + " gene " + g + ": " + a[g] + " vs " + e[g]);
            }
            report.append("; ")
                    .append(c)
                    .append(" max rel ")
                    .append(String.format("%.1e", rel))
                    .append(" (abs ")
                    .append(String.format("%.1e", abs))
                    .append(')');
        }
        System.out.println(report);
    }

    /**
     * The ranks of the reference up to the order among genes of equal normalized variance (genes with the same
     * counts): scanpy ranks with numpy's unstable argsort, whose order among equal values depends on the machine
     * (introsort or SIMD sort); scflux ranks equal values by gene position.
     */
    private static void assertRanksUpToTies(Reference.Table ref, AnnData out) {
        double[] norm = ref.doubles("variances_norm");
        double[] expected = ref.doubles("highly_variable_rank");
        double[] actual = doubles(out, "highly_variable_rank");
        Map<Double, List<Double>> byValueExpected = new HashMap<>();
        Map<Double, List<Double>> byValueActual = new HashMap<>();
        int exact = 0;
        for (int g = 0; g < norm.length; g++) {
            byValueExpected.computeIfAbsent(norm[g], k -> new ArrayList<>()).add(expected[g]);
            byValueActual.computeIfAbsent(norm[g], k -> new ArrayList<>()).add(actual[g]);
            exact += Double.compare(expected[g], actual[g]) == 0 ? 1 : 0;
        }
        for (Map.Entry<Double, List<Double>> e : byValueExpected.entrySet()) {
            List<Double> want = new ArrayList<>(e.getValue());
            List<Double> got = new ArrayList<>(byValueActual.get(e.getKey()));
            want.sort(null);
            got.sort(null);
            assertEquals(want, got, "ranks of the genes with variances_norm " + e.getKey());
        }
        System.out.println("hvg_seurat_v3: highly_variable_rank equal for " + exact + " of " + norm.length
                + " genes, the others permuted within groups of equal variances_norm");
    }

    private static int countTrue(boolean[] b) {
        int n = 0;
        for (boolean v : b) {
            n += v ? 1 : 0;
        }
        return n;
    }
}
