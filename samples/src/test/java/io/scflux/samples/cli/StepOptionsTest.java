/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.reference.Reference;
import io.scflux.samples.report.ErrorKind;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scanpy parameters the commands take besides the ones their own tests cover: {@code qc --qc-var NAME},
 * {@code --no-log1p}; {@code normalize --key-added}, {@code --exclude-highly-expressed}; {@code log1p --base};
 * {@code hvg --subset}; {@code pca --mask-var}; and the warnings scanpy gives, as lines on stderr. Expected values are
 * worked out here from the counts, or come from scanpy's reference.
 */
class StepOptionsTest {

    private static final String IN = TestFixtures.path("synth-3k.int64.h5ad").toString();

    @TempDir
    Path tmp;

    private static CsrMatrix counts() {
        AnnData a = H5ad.read(Path.of(IN));
        return CsrMatrix.collect(a.x().blocks(), a.nVars()).block();
    }

    @Test
    void qcTakesAnExistingBoolColumnAndLeavesOutLog1p() {
        Path withMt = tmp.resolve("mt.h5ad");
        AnnData first = Cli.written(
                "qc", IN, "--qc-var", "mt=MT-", "--percent-top", "none", "--no-log1p", "-o", withMt.toString());
        assertFalse(first.obs().columns().keySet().stream().anyMatch(c -> c.startsWith("pct_counts_in_top")));
        AnnData again = Cli.written(
                "qc",
                withMt.toString(),
                "--qc-var",
                "mt",
                "--no-log1p",
                "--percent-top",
                "50",
                "-o",
                tmp.resolve("again.h5ad").toString());
        assertTrue(again.obs().has("pct_counts_mt") && again.obs().has("pct_counts_in_top_50_genes"));
        assertFalse(
                again.obs().columns().keySet().stream().anyMatch(c -> c.startsWith("log1p_")),
                again.obs().columns().keySet().toString());
        Reference.Table qc = Reference.csv("qc_obs");
        double[] expected = qc.doubles("total_counts_mt");
        String[] cells = again.obs().index();
        ArrayColumn mt = (ArrayColumn) again.obs().column("total_counts_mt");
        for (int i = 0; i < cells.length; i++) {
            assertEquals(expected[qc.row(cells[i])], mt.getDouble(i), cells[i]);
        }
        Cli missing = Cli.run(
                "qc", IN, "--qc-var", "ribo", "-o", tmp.resolve("x.h5ad").toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("--qc-var ribo is not a var column"), missing.err());
        assertEquals(ErrorKind.MISSING_KEY, ErrorKind.of(new io.scflux.core.anndata.MissingColumnException("x")));
    }

    @Test
    void normalizeAddsItsFactorsAndCanExcludeHighlyExpressedGenes() {
        AnnData keyed = Cli.written(
                "normalize",
                IN,
                "--target-sum",
                "10000",
                "--key-added",
                "norm_factor",
                "-o",
                tmp.resolve("k.h5ad").toString());
        CsrMatrix x = counts();
        ArrayColumn factor = (ArrayColumn) keyed.obs().column("norm_factor");
        for (int i = 0; i < x.nRows(); i++) {
            assertEquals((float) (rowSum(x, i, null) / 1e4), factor.getDouble(i), 1e-6 * factor.getDouble(i));
        }
        AnnData excluded = Cli.written(
                "normalize",
                IN,
                "--target-sum",
                "10000",
                "--exclude-highly-expressed",
                "--max-fraction",
                "0.05",
                "--key-added",
                "f",
                "-o",
                tmp.resolve("e.h5ad").toString());
        // scanpy's rule: a gene above 5% of some cell's total counts towards no cell's total
        boolean[] high = new boolean[x.nCols()];
        for (int i = 0; i < x.nRows(); i++) {
            double total = rowSum(x, i, null);
            for (long k = x.indptr(i); k < x.indptr(i + 1); k++) {
                high[x.index(k)] |= x.value(k) > 0.05 * (float) total;
            }
        }
        assertTrue(IntStream.range(0, high.length).anyMatch(g -> high[g]), "some gene is excluded");
        ArrayColumn f = (ArrayColumn) excluded.obs().column("f");
        for (int i = 0; i < x.nRows(); i++) {
            assertEquals((float) (rowSum(x, i, high) / 1e4), f.getDouble(i), 1e-6 * f.getDouble(i));
        }
    }

    @Test
    void log1pTakesABase() {
        AnnData base2 = Cli.written(
                "log1p", IN, "--base", "2", "-o", tmp.resolve("b.h5ad").toString());
        CsrMatrix x = counts();
        CsrMatrix got = CsrMatrix.collect(base2.x().blocks(), base2.nVars()).block();
        for (long k = 0; k < x.nnz(); k++) {
            // numpy: log1p of the float32 data in float32, divided by the float64 log(2) into float32
            float expected = (float) ((float) Math.log1p(x.value(k)) / Math.log(2));
            assertEquals(expected, got.value(k), Math.ulp(expected), "entry " + k);
        }
        @SuppressWarnings("unchecked")
        DenseArray recorded = (DenseArray) ((Map<String, Object>) base2.uns().get("log1p")).get("base");
        assertEquals(2.0, recorded.getDouble(0));
        assertEquals(
                2,
                Cli.run("log1p", IN, "--base", "1", "-o", tmp.resolve("c.h5ad").toString())
                        .exitCode());
    }

    @Test
    void hvgSubsetKeepsScanpysGenesOnly() {
        Path pre = tmp.resolve("pre.h5ad");
        Cli.written("preprocess", IN, "--target-sum", "10000", "-o", pre.toString());
        AnnData subset = Cli.written(
                "hvg",
                pre.toString(),
                "--n-top-genes",
                "500",
                "--subset",
                "-o",
                tmp.resolve("s.h5ad").toString());
        Reference.Table hvg = Reference.csv("hvg_seurat");
        boolean[] hv = hvg.bools("highly_variable");
        String[] names = hvg.rowNames();
        String[] expected = IntStream.range(0, names.length)
                .filter(g -> hv[g])
                .mapToObj(g -> names[g])
                .toArray(String[]::new);
        assertArrayEquals(expected, subset.var().index());
        assertEquals(500, subset.x().nCols());
        boolean[] flags = (boolean[])
                ((ArrayColumn) subset.var().column("highly_variable")).values().data();
        assertTrue(IntStream.range(0, flags.length).allMatch(g -> flags[g]));
    }

    @Test
    void pcaOnTheGenesOfAMaskColumn() {
        Path pre = tmp.resolve("pre.h5ad");
        Cli.written("preprocess", IN, "--target-sum", "10000", "--qc-var", "mt=MT-", "-o", pre.toString());
        AnnData pca = Cli.written(
                "pca",
                pre.toString(),
                "--mask-var",
                "mt",
                "--n-comps",
                "5",
                "-o",
                tmp.resolve("p.h5ad").toString());
        boolean[] mt =
                (boolean[]) ((ArrayColumn) pca.var().column("mt")).values().data();
        DenseArray pcs = (DenseArray) pca.varm().get("PCs");
        for (int g = 0; g < mt.length; g++) {
            double norm = 0;
            for (int j = 0; j < 5; j++) {
                norm += Math.abs(pcs.getDouble(g * 5 + j));
            }
            assertEquals(mt[g], norm > 0, "gene " + g + ": loadings only on the mask's genes");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> params =
                (Map<String, Object>) ((Map<String, Object>) pca.uns().get("pca")).get("params");
        assertEquals("mt", ((DenseArray) params.get("mask_var")).get(0));
        Cli both = Cli.run(
                "pca",
                pre.toString(),
                "--mask-var",
                "mt",
                "--use-highly-variable",
                "-o",
                tmp.resolve("q.h5ad").toString());
        assertEquals(2, both.exitCode(), both.err());
        Cli absent = Cli.run(
                "pca",
                pre.toString(),
                "--mask-var",
                "nope",
                "-o",
                tmp.resolve("q.h5ad").toString());
        assertEquals(2, absent.exitCode(), absent.err());
    }

    @Test
    void scanpysWarningsAreLinesOnStderr() {
        Path logged = tmp.resolve("l.h5ad");
        Cli.written("log1p", IN, "-o", logged.toString());
        Cli twice =
                Cli.run("log1p", logged.toString(), "-o", tmp.resolve("l2.h5ad").toString());
        assertEquals(0, twice.exitCode(), twice.err());
        assertTrue(
                twice.err().contains("scflux: warning: adata.X seems to be already log-transformed.\n"), twice.err());
        Cli qc = Cli.run("qc", logged.toString(), "-o", tmp.resolve("q.h5ad").toString());
        assertTrue(
                qc.err()
                        .contains("scflux: warning: `calculate_qc_metrics` expects raw count data, but "
                                + "non-integers were found"),
                qc.err());
        Cli counts = Cli.run("qc", IN, "-o", tmp.resolve("c.h5ad").toString());
        assertFalse(counts.err().contains("warning"), counts.err());
    }

    /** Cell {@code i}'s sum in float64, over the genes not {@code excluded}. */
    private static double rowSum(CsrMatrix x, int i, boolean[] excluded) {
        double s = 0;
        for (long k = x.indptr(i); k < x.indptr(i + 1); k++) {
            if (excluded == null || !excluded[x.index(k)]) {
                s += x.value(k);
            }
        }
        return s;
    }
}
