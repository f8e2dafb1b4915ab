/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jhdf.HdfFile;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Threads;
import io.scflux.ops.reference.Reference;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Parity with decoupler 2.1.1's {@code pp.pseudobulk(adata, sample_col="sample", groups_col="cell_type")} on synth-3k
 * (expected/README.md): row names and order, obs, X and psbulk_props. The reference X is read as float64 straight
 * from the file; sums and means agree to the bit (decoupler casts X to float64, sums in row order and divides by the
 * cell count, as scflux does).
 *
 * <p>decoupler 2.1.1 returns the genes shuffled ({@code np.random.default_rng(0).choice(n, n, replace=False)}, its
 * {@code break_ties}; 2.1.3 stopped doing so); scflux keeps the input's gene order, so genes are matched by name.
 */
class PseudobulkReferenceTest {

    @ParameterizedTest
    @EnumSource(PseudobulkOptions.Mode.class)
    void matchesDecoupler(PseudobulkOptions.Mode mode) {
        String name = "pseudobulk_" + mode.name().toLowerCase();
        AnnData counts = Reference.counts();
        AnnData out = Pseudobulk.pseudobulk(
                        counts,
                        PseudobulkOptions.of("sample", "cell_type").withMode(mode),
                        Streaming.DEFAULT.withThreads(2))
                .block();
        AnnData ref = Reference.h5ad(name);
        Reference.Table table = Reference.csv(name + "_obs");

        assertEquals(48, out.nObs());
        assertArrayEquals(table.rowNames(), out.obs().index(), "row names and order");
        assertArrayEquals(ref.obs().index(), out.obs().index());
        assertEquals(
                List.of("sample", "cell_type", "batch", "psbulk_cells", "psbulk_counts"),
                List.copyOf(out.obs().columns().keySet()));
        for (String c : List.of("sample", "cell_type", "batch")) {
            Column mine = out.obs().column(c);
            assertInstanceOf(CategoricalColumn.class, mine, c);
            assertEquals(ref.obs().column(c), mine, c + ": categories, codes and code type as decoupler's");
            for (int r = 0; r < table.size(); r++) {
                assertEquals(table.string(r, c), mine.get(r), c + " row " + r);
            }
        }
        for (String c : List.of("psbulk_cells", "psbulk_counts")) {
            assertEquals(ref.obs().column(c), out.obs().column(c), c + ": float64 values");
            assertArrayEquals(
                    table.doubles(c),
                    (double[]) ((ArrayColumn) out.obs().column(c)).values().data(),
                    c);
        }

        assertArrayEquals(counts.var().index(), out.var().index(), "genes in the input's order");
        assertEquals(
                new HashSet<>(Arrays.asList(ref.var().index())),
                new HashSet<>(Arrays.asList(out.var().index())),
                "the same genes as decoupler");
        assertEquals(counts.var().columns().keySet(), out.var().columns().keySet());
        int[] refCol = new int[out.nVars()];
        for (int g = 0; g < refCol.length; g++) {
            refCol[g] = ref.var().positionOf(out.var().index()[g]);
            assertEquals(
                    ref.var().column("gene_ids").get(refCol[g]),
                    out.var().column("gene_ids").get(g));
        }

        assertTrue(out.x().isDense(), "X is dense, as decoupler's ndarray");
        assertExact("X", float64(name, "/X"), (DenseMatrix) out.x(), refCol);
        assertExact(
                "psbulk_props",
                float64(name, "/layers/psbulk_props"),
                (DenseMatrix) out.layers().get("psbulk_props"),
                refCol);
    }

    @Test
    void sameBitsWithAnyThreadsAndPlan() {
        AnnData counts = Reference.counts();
        PseudobulkOptions o = PseudobulkOptions.of("sample", "cell_type").withMode(PseudobulkOptions.Mode.MEAN);
        AnnData base = Pseudobulk.pseudobulk(counts, o, Streaming.DEFAULT).block();
        for (Threads t : Threads.values()) {
            for (BlockSize b : List.of(BlockSize.TINY, BlockSize.SMALL, BlockSize.DEFAULT)) {
                AnnData out = Pseudobulk.pseudobulk(counts, o, new Streaming(b.target(), t.execution()))
                        .block();
                String where = t + " " + b;
                assertArrayEquals(base.obs().index(), out.obs().index(), where);
                base.obs().columns().forEach((k, v) -> assertEquals(v, out.obs().column(k), where + " " + k));
                assertSameBits(where + " X", (DenseMatrix) base.x(), (DenseMatrix) out.x());
                assertSameBits(where + " props", (DenseMatrix) base.layers().get("psbulk_props"), (DenseMatrix)
                        out.layers().get("psbulk_props"));
            }
        }
    }

    private static void assertSameBits(String what, DenseMatrix expected, DenseMatrix actual) {
        for (int r = 0; r < expected.nRows(); r++) {
            for (int g = 0; g < expected.nCols(); g++) {
                if (Double.doubleToLongBits(expected.get(r, g)) != Double.doubleToLongBits(actual.get(r, g))) {
                    fail(what + "[" + r + ", " + g + "]: " + expected.get(r, g) + " vs " + actual.get(r, g));
                }
            }
        }
    }

    private static void assertExact(String what, double[][] expected, DenseMatrix actual, int[] refCol) {
        assertEquals(expected.length, actual.nRows(), what + " rows");
        for (int r = 0; r < expected.length; r++) {
            for (int g = 0; g < refCol.length; g++) {
                double e = expected[r][refCol[g]];
                if (Double.doubleToLongBits(e) != Double.doubleToLongBits(actual.get(r, g))) {
                    fail(what + "[" + r + ", " + g + "]: expected " + e + ", got " + actual.get(r, g));
                }
            }
        }
    }

    /** A 2-D float64 dataset of a reference file, as stored. */
    private static double[][] float64(String name, String path) {
        try (HdfFile f = new HdfFile(Reference.resource(name + ".h5ad"))) {
            return (double[][]) f.getDatasetByPath(path).getData();
        }
    }
}
