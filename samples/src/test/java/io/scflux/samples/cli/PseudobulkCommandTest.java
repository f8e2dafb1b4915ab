/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jhdf.HdfFile;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scflux pseudobulk} on synth-3k writes what decoupler 2.1.1 computed (flux-ops' references, expected/README.md):
 * the file read back by scflux has decoupler's rows, obs, X and psbulk_props, X and psbulk_props written in float64 as
 * computed: sums exact, means and proportions to the last bits of a float64 division.
 */
class PseudobulkCommandTest {

    private static final Path EXPECTED = Path.of("../flux-ops/src/test/resources/expected");

    @TempDir
    Path tmp;

    @Test
    void sumAndMeanMatchDecoupler() {
        String in = TestFixtures.path("synth-3k.int64.h5ad").toString();
        for (String mode : List.of("sum", "mean")) {
            Path out = tmp.resolve(mode + ".h5ad");
            Cli c = Cli.run(
                    "--threads",
                    "2",
                    "pseudobulk",
                    in,
                    "-o",
                    out.toString(),
                    "--sample-col",
                    "sample",
                    "--groups-col",
                    "cell_type",
                    "--mode",
                    mode);
            assertEquals(0, c.exitCode(), c.err());
            assertTrue(c.out().contains("48 pseudobulk profiles x 2000 genes"), c.out());
            AnnData mine = H5ad.read(out);
            AnnData ref = H5ad.read(EXPECTED.resolve("pseudobulk_" + mode + ".h5ad"));
            assertArrayEquals(ref.obs().index(), mine.obs().index(), "rows {sample}_{group}, by group then sample");
            assertEquals(
                    List.copyOf(ref.obs().columns().keySet()),
                    List.copyOf(mine.obs().columns().keySet()));
            ref.obs()
                    .columns()
                    .forEach((name, col) -> assertEquals(col, mine.obs().column(name), name));
            assertArrayEquals(H5ad.read(Path.of(in)).var().index(), mine.var().index(), "the input's gene order");
            double tolerance = mode.equals("sum") ? 0 : 1e-15;
            Path refFile = EXPECTED.resolve("pseudobulk_" + mode + ".h5ad");
            assertClose(mode + " X", ref, refFile, mine, out, "/X", tolerance);
            assertClose(mode + " psbulk_props", ref, refFile, mine, out, "/layers/psbulk_props", 1e-15);
        }
    }

    @Test
    void filtersAndRejectsBadOptions() {
        String in = TestFixtures.path("synth-3k.int64.h5ad").toString();
        Path out = tmp.resolve("filtered.h5ad");
        Cli c = Cli.run(
                "pseudobulk",
                in,
                "-o",
                out.toString(),
                "--sample-col",
                "sample",
                "--groups-col",
                "cell_type",
                "--min-cells",
                "50",
                "--min-counts",
                "40000");
        assertEquals(0, c.exitCode(), c.err());
        AnnData mine = H5ad.read(out);
        AnnData all = H5ad.read(EXPECTED.resolve("pseudobulk_sum.h5ad"));
        int kept = 0;
        for (int r = 0; r < all.nObs(); r++) {
            double cells = (Double) all.obs().column("psbulk_cells").get(r);
            double counts = (Double) all.obs().column("psbulk_counts").get(r);
            if (cells >= 50 && counts >= 40000) {
                assertEquals(all.obs().index()[r], mine.obs().index()[kept++]);
            }
        }
        assertEquals(kept, mine.nObs());
        assertTrue(kept > 0 && kept < all.nObs(), "the thresholds keep some pairs: " + kept);

        Path bad = tmp.resolve("bad.h5ad");
        Cli missing =
                Cli.run("pseudobulk", in, "-o", bad.toString(), "--sample-col", "donor", "--groups-col", "cell_type");
        assertEquals(2, missing.exitCode(), "a column named and missing is a usage error, as in every command");
        assertTrue(missing.err().contains("--sample-col donor is not an obs column"), missing.err());
        assertEquals(
                2,
                Cli.run("pseudobulk", in, "-o", bad.toString(), "--sample-col", "sample")
                        .exitCode());
        assertEquals(
                2,
                Cli.run(
                                "pseudobulk",
                                in,
                                "-o",
                                bad.toString(),
                                "--sample-col",
                                "sample",
                                "--groups-col",
                                "cell_type",
                                "--mode",
                                "median")
                        .exitCode());
        assertFalse(Files.exists(bad), "nothing written");
    }

    /** anndata reads the written file as decoupler's result: rows, obs dtypes and categories, X, psbulk_props. */
    @Test
    void anndataReadsDecouplersResult() throws java.io.IOException {
        Python.assumeAnndata();
        Path out = tmp.resolve("sum.h5ad");
        Cli c = Cli.run(
                "pseudobulk",
                TestFixtures.path("synth-3k.int64.h5ad").toString(),
                "-o",
                out.toString(),
                "--sample-col",
                "sample",
                "--groups-col",
                "cell_type");
        assertEquals(0, c.exitCode(), c.err());
        String script = String.join(
                "\n",
                "import sys, anndata as ad, h5py, numpy as np, scipy.sparse as sp",
                "a = ad.read_h5ad(sys.argv[1]); f = h5py.File(sys.argv[2], 'r')",
                "s = lambda d: [v.decode() for v in d[:]]",
                "assert list(a.obs_names) == s(f['obs/_index'])",
                "assert list(a.obs.columns) == ['sample', 'cell_type', 'batch', 'psbulk_cells', 'psbulk_counts']",
                "for k in ['sample', 'cell_type', 'batch']:",
                "    assert str(a.obs[k].dtype) == 'category', k",
                "    assert list(a.obs[k].cat.categories) == s(f['obs/' + k + '/categories']), k",
                "    assert (a.obs[k].cat.codes.values == f['obs/' + k + '/codes'][:]).all(), k",
                "for k in ['psbulk_cells', 'psbulk_counts']:",
                "    assert a.obs[k].dtype == np.float64 and (a.obs[k].values == f['obs/' + k][:]).all(), k",
                "pos = {g: i for i, g in enumerate(s(f['var/_index']))}",
                "order = [pos[g] for g in a.var_names]",
                "dense = lambda m: m.toarray() if sp.issparse(m) else m",
                "X = dense(a.X)",
                "assert X.dtype == np.float64 and np.array_equal(X, f['X'][:][:, order])",
                "P = dense(a.layers['psbulk_props'])",
                "assert np.allclose(P, f['layers/psbulk_props'][:][:, order], rtol=1e-6, atol=0)",
                "print('ok')");
        assertEquals(
                "ok",
                Python.run(
                                script,
                                out.toString(),
                                EXPECTED.resolve("pseudobulk_sum.h5ad").toString())
                        .strip());
    }

    /**
     * The same float64 values at {@code path} of both files, gene by gene (genes matched by name: decoupler 2.1.1
     * shuffles them), read by jhdf as stored.
     */
    private static void assertClose(
            String what, AnnData refData, Path refFile, AnnData mineData, Path mineFile, String path, double relative) {
        double[][] e = float64(refFile, path);
        double[][] a = float64(mineFile, path);
        assertEquals(e.length, a.length, what + " rows");
        for (int g = 0; g < mineData.nVars(); g++) {
            int rg = refData.var().positionOf(mineData.var().index()[g]);
            for (int r = 0; r < e.length; r++) {
                double x = e[r][rg];
                if (Math.abs(a[r][g] - x) > relative * Math.abs(x)) {
                    fail(what + "[" + r + ", " + g + "]: expected " + x + ", got " + a[r][g]);
                }
            }
        }
    }

    private static double[][] float64(Path file, String path) {
        try (HdfFile h = new HdfFile(file)) {
            return (double[][]) h.getDatasetByPath(path).getData();
        }
    }
}
