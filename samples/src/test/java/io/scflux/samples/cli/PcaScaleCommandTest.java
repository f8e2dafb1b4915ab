/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.io.H5ad;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scflux pca} and {@code scflux scale} in-process on a small log-expression matrix made here (300 cells x 60
 * genes, 40 marked highly variable), checked against properties computed here from the input.
 */
class PcaScaleCommandTest {

    private static final int CELLS = 300;
    private static final int GENES = 60;
    private static final int K = 5;

    @TempDir
    Path tmp;

    private Path input;
    /** The input as dense rows. */
    private double[][] x;

    private boolean[] hvg;

    @BeforeEach
    void writeInput() {
        Random random = new Random(3);
        CsrMatrix.Builder b = CsrMatrix.builder(GENES);
        x = new double[CELLS][GENES];
        for (int r = 0; r < CELLS; r++) {
            int[] idx = new int[GENES];
            float[] val = new float[GENES];
            int m = 0;
            double program = random.nextGaussian();
            for (int g = 0; g < GENES; g++) {
                double mean = Math.exp(0.5 + (g % 7 == 0 ? program : 0) + 0.3 * random.nextGaussian());
                float v = (float) Math.log1p(Math.floor(mean * random.nextDouble() * 2));
                if (v != 0) {
                    idx[m] = g;
                    val[m++] = v;
                    x[r][g] = v;
                }
            }
            b.addRow(java.util.Arrays.copyOf(idx, m), java.util.Arrays.copyOf(val, m));
        }
        String[] genes = new String[GENES];
        hvg = new boolean[GENES];
        for (int g = 0; g < GENES; g++) {
            genes[g] = "G" + g;
            hvg[g] = g % 3 != 0;
        }
        Frame var = new Frame(genes);
        var.put("highly_variable", ArrayColumn.of(hvg));
        input = tmp.resolve("in.h5ad");
        H5ad.write(new AnnData(b.build(), Frame.ofRange(CELLS), var), input).block();
    }

    private static double[] column(double[][] m, int c) {
        double[] out = new double[m.length];
        for (int r = 0; r < m.length; r++) {
            out[r] = m[r][c];
        }
        return out;
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double d : v) {
            s += d;
        }
        return s / v.length;
    }

    /** Sample variance (ddof 1), two-pass. */
    private static double variance(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double d : v) {
            s += (d - m) * (d - m);
        }
        return s / (v.length - 1);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> uns(AnnData a) {
        return (Map<String, Object>) a.uns().get("pca");
    }

    @Test
    void pcaOnTheHighlyVariableGenesByDefault() {
        Path out = tmp.resolve("pca.h5ad");
        Cli c = Cli.run(
                "--threads",
                "2",
                "--chunk-nnz",
                "500",
                "pca",
                input.toString(),
                "-o",
                out.toString(),
                "--n-comps",
                String.valueOf(K));
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(out);
        DenseArray coords = (DenseArray) a.obsm().get("X_pca");
        assertEquals(DType.FLOAT32, coords.dtype());
        assertArrayEquals(new long[] {CELLS, K}, coords.shape());
        DenseArray variance = (DenseArray) uns(a).get("variance");
        DenseArray ratio = (DenseArray) uns(a).get("variance_ratio");
        double total = 0;
        for (int g = 0; g < GENES; g++) {
            total += hvg[g] ? variance(column(x, g)) : 0;
        }
        for (int j = 0; j < K; j++) {
            double[] cj = new double[CELLS];
            for (int r = 0; r < CELLS; r++) {
                cj[r] = coords.getDouble(r * K + j);
            }
            assertEquals(0, mean(cj), 1e-5, "X_pca column " + j + " is centred");
            assertEquals(variance(cj), variance.getDouble(j), 1e-5 * variance(cj), "variance " + j);
            assertEquals(variance(cj) / total, ratio.getDouble(j), 1e-5 * ratio.getDouble(j), "ratio " + j);
            assertTrue(j == 0 || variance.getDouble(j) <= variance.getDouble(j - 1), "decreasing variance");
        }
        DenseArray pcs = (DenseArray) a.varm().get("PCs");
        assertEquals(DType.FLOAT64, pcs.dtype(), "zeros for the other genes make PCs float64, as in scanpy");
        for (int j = 0; j < K; j++) {
            double norm = 0;
            for (int g = 0; g < GENES; g++) {
                double v = pcs.getDouble(g * K + j);
                if (!hvg[g]) {
                    assertEquals(0, v, "gene " + g + " is not highly variable");
                }
                norm += v * v;
            }
            assertEquals(1, norm, 1e-6, "component " + j + " has unit length");
        }
        Map<String, Object> params = (Map<String, Object>) uns(a).get("params");
        assertEquals(DenseArray.scalar(true), params.get("use_highly_variable"));
        assertEquals(DenseArray.scalar("highly_variable"), params.get("mask_var"));
    }

    @Test
    void pcaOnAllGenesWhenAskedAndAnndataReadsIt() throws IOException {
        Path out = tmp.resolve("pca-all.h5ad");
        Cli c = Cli.run(
                "pca",
                input.toString(),
                "-o",
                out.toString(),
                "--n-comps",
                String.valueOf(K),
                "--no-use-highly-variable",
                "--solver",
                "randomized");
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(out);
        assertEquals(DType.FLOAT32, ((DenseArray) a.varm().get("PCs")).dtype());
        assertArrayEquals(new long[] {GENES, K}, ((DenseArray) a.varm().get("PCs")).shape());
        double total = 0;
        for (int g = 0; g < GENES; g++) {
            total += variance(column(x, g));
        }
        DenseArray variance = (DenseArray) uns(a).get("variance");
        DenseArray ratio = (DenseArray) uns(a).get("variance_ratio");
        assertEquals(variance.getDouble(0) / total, ratio.getDouble(0), 1e-5 * ratio.getDouble(0));

        Python.assumeAnndata();
        String script = String.join(
                "\n",
                "import sys, anndata, numpy as np",
                "a = anndata.read_h5ad(sys.argv[1])",
                "p = a.uns['pca']",
                "assert a.obsm['X_pca'].dtype == np.float32 and a.obsm['X_pca'].shape == (300, 5), a.obsm['X_pca']",
                "assert a.varm['PCs'].dtype == np.float32 and a.varm['PCs'].shape == (60, 5)",
                "assert p['variance'].dtype == np.float32 and p['variance_ratio'].dtype == np.float32",
                "assert not p['params']['use_highly_variable'] and p['params']['zero_center']",
                "v = np.var(a.obsm['X_pca'].astype(np.float64), axis=0, ddof=1)",
                "assert np.allclose(v, p['variance'], rtol=1e-5), (v, p['variance'])",
                "print('ok')");
        assertEquals("ok", Python.run(script, out.toString()).strip());
    }

    @Test
    void scaleWritesADenseFloat64MatrixOfZeroMeanAndUnitVariance() throws IOException {
        Path out = tmp.resolve("scaled.h5ad");
        Cli c = Cli.run("--chunk-nnz", "1000", "scale", input.toString(), "-o", out.toString(), "--max-value", "2.5");
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(out);
        assertTrue(a.x().isDense());
        assertEquals(DType.FLOAT64, a.x().dtype());
        double[] mean =
                (double[]) ((ArrayColumn) a.var().column("mean")).values().data();
        double[] std = (double[]) ((ArrayColumn) a.var().column("std")).values().data();
        CsrMatrix scaled = CsrMatrix.collect(a.x().blocks(a.x().plan(PlanTarget.DEFAULT)), GENES)
                .block();
        double[][] y = new double[CELLS][GENES];
        for (int r = 0; r < CELLS; r++) {
            for (long k = scaled.indptr(r); k < scaled.indptr(r + 1); k++) {
                y[r][scaled.index(k)] = scaled.value(k);
            }
        }
        for (int g = 0; g < GENES; g++) {
            double[] col = column(x, g);
            assertEquals(mean(col), mean[g], 1e-12 * Math.abs(mean(col)), "mean " + g);
            assertEquals(Math.sqrt(variance(col)), std[g], 1e-6 * std[g], "std " + g);
            for (int r = 0; r < CELLS; r++) {
                double expected = Math.max(-2.5, Math.min(2.5, (col[r] - mean[g]) / std[g]));
                assertEquals((float) expected, (float) y[r][g], "row " + r + " gene " + g);
            }
        }
        Python.assumeAnndata();
        String script = String.join(
                "\n",
                "import sys, anndata, numpy as np",
                "a = anndata.read_h5ad(sys.argv[1])",
                "assert isinstance(a.X, np.ndarray) and a.X.dtype == np.float64 and a.X.shape == (300, 60), type(a.X)",
                "assert a.X.max() <= 2.5 and a.X.min() >= -2.5",
                "assert list(a.var.columns) == ['highly_variable', 'mean', 'std'], a.var.columns",
                "assert a.var['std'].dtype == np.float64",
                "print('ok')");
        assertEquals("ok", Python.run(script, out.toString()).strip());
    }

    @Test
    void scaleWithoutCentringKeepsXSparse() {
        Path out = tmp.resolve("scaled-sparse.h5ad");
        Cli c = Cli.run("scale", input.toString(), "-o", out.toString(), "--no-zero-center");
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(out);
        assertFalse(a.x().isDense());
        assertEquals(DType.FLOAT64, a.x().dtype());
    }

    @Test
    void badOptionsAreUsageErrors() {
        Path out = tmp.resolve("never.h5ad");
        assertEquals(
                2,
                Cli.run("pca", input.toString(), "-o", out.toString(), "--n-comps", "0")
                        .exitCode());
        assertEquals(
                2,
                Cli.run("pca", input.toString(), "-o", out.toString(), "--solver", "lapack")
                        .exitCode());
        assertEquals(
                2,
                Cli.run("scale", input.toString(), "-o", out.toString(), "--max-value", "-1")
                        .exitCode());
        assertFalse(Files.exists(out));
        Cli help = Cli.run("--help");
        assertTrue(help.out().contains("pca") && help.out().contains("scale"), help.out());
    }
}
