/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.reference.NormalizedReference;
import io.scflux.ops.reference.QcReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qc}, {@code normalize}, {@code log1p} and {@code preprocess} on synth-3k, checked against scanpy's output. */
@Tag("slow")
class PreprocessingCommandsTest {

    /** The oracle's input (synth-3k) with int64 indices. */
    private static final String IN = TestFixtures.path("synth-3k.int64.h5ad").toString();

    @TempDir
    Path tmp;

    @Test
    void qcAddsScanpysColumns() {
        AnnData out = Cli.written(
                "qc",
                IN,
                "--qc-var",
                "mt=MT-",
                "--percent-top",
                "200,50,100",
                "-o",
                tmp.resolve("qc.h5ad").toString());
        QcReference.assertMatches(out);
    }

    @Test
    void normalizeDividesByTheMedianTotalByDefault() {
        AnnData out =
                Cli.written("normalize", IN, "-o", tmp.resolve("norm.h5ad").toString());
        NormalizedReference.assertMatches("normalized_median", out.x());
    }

    @Test
    void log1pTakesTheLogarithmOfEveryValue() {
        AnnData out = Cli.written(
                "--threads", "4", "log1p", IN, "-o", tmp.resolve("log1p.h5ad").toString());
        CsrMatrix in = collect(H5ad.read(Path.of(IN)).x());
        CsrMatrix got = collect(out.x());
        assertEquals(in.nnz(), got.nnz());
        for (long k = 0; k < in.nnz(); k++) {
            assertEquals((float) Math.log1p(in.value(k)), got.value(k), 0, "entry " + k);
        }
        assertTrue(out.uns().containsKey("log1p"));
    }

    @Test
    void preprocessIsQcNormalizeAndLog1p() {
        AnnData out = Cli.written(
                "preprocess",
                IN,
                "--target-sum",
                "10000",
                "--qc-var",
                "mt=MT-",
                "-o",
                tmp.resolve("pre.h5ad").toString());
        QcReference.assertMatches(out);
        NormalizedReference.assertMatches("normalized_log1p", out.x());
        assertTrue(out.uns().containsKey("log1p"));
    }

    @Test
    void preprocessWritesTheSameValuesForAnyThreadCount() {
        AnnData one = Cli.written(
                "preprocess",
                IN,
                "--qc-var",
                "mt=MT-",
                "--chunk-nnz",
                "50000",
                "-o",
                tmp.resolve("one.h5ad").toString());
        AnnData eight = Cli.written(
                "preprocess",
                IN,
                "--qc-var",
                "mt=MT-",
                "--chunk-nnz",
                "50000",
                "--threads",
                "8",
                "-o",
                tmp.resolve("eight.h5ad").toString());
        for (String name : one.obs().columns().keySet()) {
            Column a = one.obs().column(name);
            Column b = eight.obs().column(name);
            for (int i = 0; i < a.size(); i++) {
                assertEquals(a.get(i), b.get(i), name + " of cell " + i);
            }
        }
        Matrices.assertSame(collect(one.x()), collect(eight.x()));
    }

    @Test
    void preprocessOutputReadsInAnndata() throws IOException {
        Python.assumeAnndata();
        Path out = tmp.resolve("pre.h5ad");
        Cli.written("preprocess", IN, "--target-sum", "10000", "--qc-var", "mt=MT-", "-o", out.toString());
        String script = String.join(
                "\n",
                "import sys, anndata, numpy as np, scipy.sparse as sp",
                "a = anndata.read_h5ad(sys.argv[1])",
                "assert a.shape == (3000, 2000) and sp.isspmatrix_csr(a.X) and a.X.dtype == np.float32",
                "want = {'n_genes_by_counts': 'int32', 'log1p_n_genes_by_counts': 'float64',",
                "        'total_counts': 'float32', 'log1p_total_counts': 'float32',",
                "        'pct_counts_in_top_50_genes': 'float64', 'pct_counts_in_top_100_genes': 'float64',",
                "        'pct_counts_in_top_200_genes': 'float64', 'total_counts_mt': 'float32',",
                "        'log1p_total_counts_mt': 'float32', 'pct_counts_mt': 'float32'}",
                "got = {k: str(v) for k, v in a.obs.dtypes.items() if k in want}",
                "assert got == want, got",
                "assert a.var['mt'].dtype == bool and a.var['mt'].sum() == 13",
                "assert str(a.var['n_cells_by_counts'].dtype) == 'int64'",
                "sums = np.asarray(np.expm1(a.X.astype(np.float64)).sum(axis=1)).ravel()",
                "assert np.allclose(sums, 1e4, rtol=1e-5), sums[:5]",
                "assert 'log1p' in a.uns",
                "print('ok')");
        assertEquals("ok", Python.run(script, out.toString()).strip());
    }

    @Test
    void helpListsTheCommandsAndTheirOptions() {
        String help = Cli.run("--help").out();
        for (String command : List.of("qc", "normalize", "log1p", "preprocess")) {
            assertTrue(help.contains(command), command + " in\n" + help);
            Cli c = Cli.run(command, "--help");
            assertEquals(0, c.exitCode());
            assertTrue(c.out().contains("--threads") && c.out().contains("--output"), c.out());
        }
        assertTrue(Cli.run("preprocess", "--help").out().contains("--qc-var"));
        String cores = "this machine's cores, " + Runtime.getRuntime().availableProcessors() + ")";
        assertTrue(
                Cli.run("qc", "--help").out().replaceAll("\\s+", " ").contains(cores),
                "--threads defaults to " + cores);
        assertTrue(Cli.run("normalize", "--help").out().contains("--target-sum"));
    }

    @Test
    void badOptionsAreUsageErrors() {
        String out = tmp.resolve("x.h5ad").toString();
        for (List<String> args : List.of(
                List.of("qc", IN, "--qc-var", "=MT-", "-o", out),
                List.of("qc", IN, "--qc-var", "mt=MT-", "--qc-var", "mt", "-o", out),
                List.of("qc", IN, "--percent-top", "ten", "-o", out),
                List.of("qc", IN, "--percent-top", "0", "-o", out),
                List.of("qc", IN, "--percent-top", "5000", "-o", out),
                List.of("normalize", IN, "--target-sum", "-1", "-o", out),
                List.of("preprocess", IN, "--target-sum", "0", "-o", out))) {
            Cli c = Cli.run(args.toArray(String[]::new));
            assertEquals(2, c.exitCode(), args + ": " + c.err());
        }
        assertFalse(Files.exists(Path.of(out)), "nothing written");
    }

    private static CsrMatrix collect(BlockSource x) {
        return CsrMatrix.collect(Streaming.DEFAULT.blocks(x), x.nCols()).block(Duration.ofSeconds(120));
    }
}
