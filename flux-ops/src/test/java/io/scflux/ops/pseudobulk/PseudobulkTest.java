/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.DenseMatrix;
import io.scflux.core.anndata.Frame;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A small case worked out by hand, following decoupler 2.1's rules: pairs ordered by group then sample, a pair without
 * cells, cells with a missing sample or group left out, a categorical with an unused category, which obs columns are
 * kept, and {@code filter_samples}' thresholds.
 */
class PseudobulkTest {

    private static final String[] GENES = {"g0", "g1", "g2", "g3"};

    /**
     * Ten cells. Pairs: S1_A = {0, 3}, S2_A = {2}, S3_A = {8, 9}, S1_B = {1, 6}, S2_B = {7}, S3_B = {} (no cells).
     * Cell 4 has no group, cell 5 no sample: both left out. Group categories list B before A and an unused Z.
     */
    private static AnnData cells() {
        float[][] x = {
            {1, 0, 2, 0},
            {0, 3, 0, 0},
            {4, 1, 0, 0},
            {2, 0, 0, 5},
            {9, 9, 9, 9},
            {7, 7, 7, 7},
            {0, 2, 1, 0},
            {0, 0, 6, 0},
            {1, 1, 1, 1},
            {0, 0, 0, 3},
        };
        CsrMatrix.Builder b = CsrMatrix.builder(GENES.length);
        for (float[] row : x) {
            int n = 0;
            int[] idx = new int[row.length];
            float[] val = new float[row.length];
            for (int c = 0; c < row.length; c++) {
                // cell 3 stores an explicit zero for g1: it is no expression for psbulk_props
                if (row[c] != 0 || row == x[3] && c == 1) {
                    idx[n] = c;
                    val[n++] = row[c];
                }
            }
            b.addRow(java.util.Arrays.copyOf(idx, n), java.util.Arrays.copyOf(val, n));
        }
        Frame obs = new Frame(new String[] {"c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"});
        obs.put("donor_age", ArrayColumn.of(new long[] {30, 30, 40, 30, 40, 50, 30, 40, 30, 30}));
        obs.put("sample", ArrayColumn.of(new String[] {"S1", "S1", "S2", "S1", "S2", null, "S1", "S2", "S3", "S3"}));
        obs.put("n_genes", ArrayColumn.of(new int[] {2, 1, 2, 2, 4, 4, 2, 1, 4, 1}));
        obs.put(
                "cell_type",
                new CategoricalColumn(
                        DenseArray.of(new String[] {"B", "A", "Z"}),
                        new int[] {1, 0, 1, 1, -1, 1, 0, 0, 1, 1},
                        false,
                        DType.INT8));
        obs.put("batch", ArrayColumn.of(new String[] {"b1", "b1", "b2", "b1", "b2", "zz", "b1", "b2", "b1", "b1"}));
        obs.put("is_a", ArrayColumn.of(new boolean[] {true, false, true, true, false, true, false, false, true, true}));
        double nan = Double.NaN;
        obs.put("score", ArrayColumn.of(new double[] {nan, 1.5, 1.5, nan, 1.5, 2, 1.5, 1.5, 1.5, 1.5}));
        obs.put(
                "quality",
                new CategoricalColumn(
                        DenseArray.of(new String[] {"hi", "lo"}),
                        new int[] {0, 0, 0, 1, 0, 0, 0, 0, 0, 0},
                        false,
                        DType.INT8));
        return new AnnData(b.build(), obs, new Frame(GENES));
    }

    private static final String[] ROWS = {"S1_A", "S2_A", "S3_A", "S1_B", "S2_B", "S3_B"};
    private static final int[][] MEMBERS = {{0, 3}, {2}, {8, 9}, {1, 6}, {7}, {}};

    private static AnnData run(PseudobulkOptions options) {
        return Pseudobulk.pseudobulk(cells(), options, Streaming.DEFAULT).block();
    }

    @Test
    void sumsPairsInDecouplersOrderWithAnEmptyPair() {
        AnnData in = cells();
        AnnData out = run(PseudobulkOptions.of("sample", "cell_type"));
        assertArrayEquals(ROWS, out.obs().index());
        assertArrayEquals(GENES, out.var().index());
        float[][] x = dense(in);
        DenseMatrix sums = (DenseMatrix) out.x();
        DenseMatrix props = (DenseMatrix) out.layers().get("psbulk_props");
        for (int r = 0; r < ROWS.length; r++) {
            double total = 0;
            for (int g = 0; g < GENES.length; g++) {
                double s = 0;
                int expressed = 0;
                for (int cell : MEMBERS[r]) {
                    s += x[cell][g];
                    expressed += x[cell][g] != 0 ? 1 : 0;
                }
                total += s;
                assertEquals(s, sums.get(r, g), ROWS[r] + " " + GENES[g]);
                double p = MEMBERS[r].length == 0 ? 0 : (double) expressed / MEMBERS[r].length;
                assertEquals(p, props.get(r, g), ROWS[r] + " " + GENES[g] + " props");
            }
            assertEquals(
                    (double) MEMBERS[r].length, out.obs().column("psbulk_cells").get(r));
            assertEquals(total, out.obs().column("psbulk_counts").get(r));
        }
        assertEquals(0.0, props.get(0, 1), "S1_A g1: cell 3's stored zero is not expression");
        assertEquals(
                DType.FLOAT64,
                ((ArrayColumn) out.obs().column("psbulk_cells")).values().dtype());
    }

    @Test
    void keepsTheColumnsConstantInEveryPairAsCategoricals() {
        Frame obs = run(PseudobulkOptions.of("sample", "cell_type")).obs();
        assertEquals(
                List.of("sample", "cell_type", "donor_age", "batch", "is_a", "score", "psbulk_cells", "psbulk_counts"),
                List.copyOf(obs.columns().keySet()),
                "n_genes and quality vary within a pair");
        assertCategorical(obs, "sample", new String[] {"S1", "S2", "S3"}, 0, 1, 2, 0, 1, 2);
        assertCategorical(obs, "cell_type", new String[] {"A", "B"}, 0, 0, 0, 1, 1, 1);
        // S3_B has no cells: it takes the values of S3's first cell (cell 8)
        assertCategorical(obs, "batch", new String[] {"b1", "b2"}, 0, 1, 0, 0, 1, 0);
        assertCategorical(obs, "donor_age", new long[] {30, 40}, 0, 1, 0, 0, 1, 0);
        assertCategorical(obs, "is_a", new boolean[] {false, true}, 1, 1, 1, 0, 0, 1);
        assertCategorical(obs, "score", new double[] {1.5}, -1, 0, 0, 0, 0, 0);
    }

    @Test
    void meanDividesByTheCells() {
        AnnData in = cells();
        DenseMatrix means =
                (DenseMatrix) run(PseudobulkOptions.of("sample", "cell_type").withMode(PseudobulkOptions.Mode.MEAN))
                        .x();
        float[][] x = dense(in);
        for (int r = 0; r < ROWS.length; r++) {
            for (int g = 0; g < GENES.length; g++) {
                double s = 0;
                for (int cell : MEMBERS[r]) {
                    s += x[cell][g];
                }
                assertEquals(MEMBERS[r].length == 0 ? 0 : s / MEMBERS[r].length, means.get(r, g));
            }
        }
    }

    @Test
    void filtersAsFilterSamples() {
        // totals: S1_A 10, S2_A 5, S3_A 7, S1_B 6, S2_B 6, S3_B 0
        AnnData twoCells = run(PseudobulkOptions.of("sample", "cell_type").withMinCells(2));
        assertArrayEquals(new String[] {"S1_A", "S3_A", "S1_B"}, twoCells.obs().index());
        assertCategorical(twoCells.obs(), "sample", new String[] {"S1", "S3"}, 0, 1, 0);
        DenseMatrix x = (DenseMatrix) twoCells.x();
        assertArrayEquals(
                new double[] {0, 5, 1, 0},
                new double[] {x.get(2, 0), x.get(2, 1), x.get(2, 2), x.get(2, 3)},
                "S1_B, moved up to row 2");
        AnnData both =
                run(PseudobulkOptions.of("sample", "cell_type").withMinCells(1).withMinCounts(6));
        assertArrayEquals(
                new String[] {"S1_A", "S3_A", "S1_B", "S2_B"}, both.obs().index());
        assertEquals(4, ((DenseMatrix) both.layers().get("psbulk_props")).nRows());
        AnnData counts = run(PseudobulkOptions.of("sample", "cell_type").withMinCounts(7));
        assertArrayEquals(new String[] {"S1_A", "S3_A"}, counts.obs().index());
    }

    @Test
    void aPairWhoseTotalIsZeroKeepsZeros() {
        // explicit zeros: cells without counts (a negative value, which once made a zero total, is refused now)
        CsrMatrix x = CsrMatrix.of(2, new long[] {0, 1, 2}, new int[] {0, 0}, new float[] {0, 0});
        Frame obs = new Frame(new String[] {"a", "b"});
        obs.put("s", ArrayColumn.of(new String[] {"S", "S"}));
        obs.put("g", ArrayColumn.of(new String[] {"G", "G"}));
        AnnData out = Pseudobulk.pseudobulk(
                        new AnnData(x, obs, Frame.ofRange(2)), PseudobulkOptions.of("s", "g"), Streaming.DEFAULT)
                .block();
        assertEquals(0.0, ((DenseMatrix) out.layers().get("psbulk_props")).get(0, 0), "decoupler skips the pair");
        assertEquals(2.0, out.obs().column("psbulk_cells").get(0));
    }

    @Test
    void badColumnsAreNamed() {
        AnnData in = cells();
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class,
                () -> Pseudobulk.pseudobulk(in, PseudobulkOptions.of("donor", "cell_type"), Streaming.DEFAULT)
                        .block());
        assertTrue(missing.getMessage().contains("no obs column 'donor'"), missing.getMessage());
        IllegalArgumentException numeric = assertThrows(
                IllegalArgumentException.class,
                () -> Pseudobulk.pseudobulk(in, PseudobulkOptions.of("n_genes", "cell_type"), Streaming.DEFAULT)
                        .block());
        assertTrue(numeric.getMessage().contains("'n_genes' must hold strings"), numeric.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PseudobulkOptions.of("sample", "sample"));
        AnnData noX = new AnnData(null, in.obs(), in.var());
        assertThrows(
                IllegalArgumentException.class,
                () -> Pseudobulk.pseudobulk(noX, PseudobulkOptions.of("sample", "cell_type"), Streaming.DEFAULT)
                        .block());
    }

    private static void assertCategorical(Frame obs, String name, Object categories, int... codes) {
        CategoricalColumn c = (CategoricalColumn) obs.column(name);
        assertEquals(DenseArray.of(categories), c.categories(), name + " categories");
        assertArrayEquals(codes, c.codes(), name + " codes");
        assertEquals(DType.INT8, c.codeType());
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] < 0) {
                assertNull(c.get(i));
            }
        }
    }

    private static float[][] dense(AnnData in) {
        CsrMatrix m = (CsrMatrix) in.x();
        float[][] x = new float[(int) m.nRows()][m.nCols()];
        for (int r = 0; r < x.length; r++) {
            for (long k = m.indptr(r); k < m.indptr(r + 1); k++) {
                x[r][m.index(k)] = m.value(k);
            }
        }
        return x;
    }
}
