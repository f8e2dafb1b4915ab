/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.StagedSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.ops.reference.Embeddings;
import io.scflux.ops.reference.Reference;
import io.scflux.ops.reference.ReferenceInput;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** PCA of the reference input against scanpy's {@code sc.pp.pca(sub, n_comps=30, svd_solver="covariance_eigh")}. */
class PcaTest {

    private static final int K = 30;

    private static AnnData ours;
    private static AnnData scanpy;

    @BeforeAll
    static void run() {
        ours = Pca.pca(ReferenceInput.log1pHvg(), PcaOptions.defaults().withNComps(K), Streaming.DEFAULT)
                .block();
        scanpy = Reference.h5ad("pca");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> uns(AnnData a) {
        return (Map<String, Object>) a.uns().get("pca");
    }

    private static double[] doubles(DenseArray a) {
        double[] d = new double[a.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = a.getDouble(i);
        }
        return d;
    }

    @Test
    void varianceAndVarianceRatioMatchScanpy() {
        Reference.Table csv = Reference.csv("pca_variance");
        for (String key : new String[] {"variance", "variance_ratio"}) {
            DenseArray mine = (DenseArray) uns(ours).get(key);
            DenseArray theirs = (DenseArray) uns(scanpy).get(key);
            assertEquals(DType.FLOAT32, mine.dtype(), key + " is float32, as scikit-learn leaves it for float32 data");
            assertEquals(theirs.dtype(), mine.dtype());
            double[] expected = csv.doubles(key);
            assertArrayEquals(expected, doubles(theirs), key + ": the CSV and the h5ad agree");
            double worst = 0;
            for (int j = 0; j < K; j++) {
                worst = Math.max(worst, Math.abs(mine.getDouble(j) - expected[j]) / expected[j]);
            }
            System.out.printf("pca %s: max relative error %.2e%n", key, worst);
            assertTrue(worst <= 1e-4, key + ": max relative error " + worst);
        }
    }

    @Test
    void eachEmbeddingColumnCorrelatesWithScanpysWithTheSameSign() {
        DenseArray mine = Embeddings.xPca(ours);
        DenseArray theirs = Embeddings.xPca(scanpy);
        assertEquals(DType.FLOAT32, mine.dtype());
        assertArrayEquals(theirs.shape(), mine.shape());
        double worst = 1;
        double worstRelative = 0;
        for (int j = 0; j < K; j++) {
            double[] a = column(mine, j);
            double[] b = column(theirs, j);
            double r = correlation(a, b);
            worst = Math.min(worst, r);
            worstRelative = Math.max(worstRelative, maxAbsDiff(a, b) / maxAbs(b));
            assertTrue(r >= 0.9999, "PC" + (j + 1) + ": correlation " + r);
        }
        System.out.printf(
                "pca X_pca: min column correlation %.8f, max |difference| / max |value| %.2e%n", worst, worstRelative);
    }

    @Test
    void loadingsMatchScanpys() {
        DenseArray mine = (DenseArray) ours.varm().get("PCs");
        DenseArray theirs = (DenseArray) scanpy.varm().get("PCs");
        assertEquals(DType.FLOAT32, mine.dtype());
        assertArrayEquals(theirs.shape(), mine.shape());
        Reference.Table csv = Reference.csv("pca_loadings");
        assertArrayEquals(ours.var().index(), csv.rowNames());
        double worst = 0;
        for (int j = 0; j < K; j++) {
            double[] expected = csv.doubles("PC" + (j + 1));
            assertArrayEquals(expected, column(theirs, j), "PC" + (j + 1) + ": the CSV and the h5ad agree");
            double d = maxAbsDiff(column(mine, j), expected);
            worst = Math.max(worst, d);
        }
        System.out.printf("pca PCs: max |difference| %.2e%n", worst);
        assertTrue(worst <= 1e-3, "loadings differ by up to " + worst);
    }

    @Test
    @SuppressWarnings("unchecked")
    void paramsAreScanpys() {
        Map<String, Object> params = (Map<String, Object>) uns(ours).get("params");
        assertEquals(true, params.get("zero_center"));
        assertEquals(false, params.get("use_highly_variable"));
        assertTrue(params.containsKey("mask_var") && params.get("mask_var") == null, "mask_var is None");
        Map<String, Object> theirs = (Map<String, Object>) uns(scanpy).get("params");
        assertEquals(DenseArray.scalar(true), theirs.get("zero_center"));
        assertEquals(DenseArray.scalar(false), theirs.get("use_highly_variable"));
    }

    /**
     * With a highly_variable column in var, scanpy uses it by default: the same PCA as on the subset, and PCs for all
     * genes, zero outside the mask (and float64, from the zeros array scanpy fills).
     */
    @Test
    @SuppressWarnings("unchecked")
    void aHighlyVariableColumnIsUsedByDefaultAndPcsAreZeroOutsideIt() {
        AnnData all = Reference.counts();
        boolean[] hvg = Reference.csv("hvg_seurat").bools("highly_variable");
        all.setX(StagedSource.of(all.x(), ReferenceInput::normalizeLog1p));
        all.var().put("highly_variable", ArrayColumn.of(hvg));
        all = Pca.pca(all, PcaOptions.defaults().withNComps(K), Streaming.DEFAULT)
                .block();

        assertEquals(uns(ours).get("variance"), uns(all).get("variance"));
        assertEquals(Embeddings.xPca(ours), Embeddings.xPca(all));
        Map<String, Object> params = (Map<String, Object>) uns(all).get("params");
        assertEquals(true, params.get("use_highly_variable"));
        assertEquals("highly_variable", params.get("mask_var"));
        DenseArray pcs = (DenseArray) all.varm().get("PCs");
        DenseArray subset = (DenseArray) ours.varm().get("PCs");
        assertEquals(DType.FLOAT64, pcs.dtype());
        assertArrayEquals(new long[] {all.nVars(), K}, pcs.shape());
        for (int g = 0, a = 0; g < hvg.length; g++) {
            for (int j = 0; j < K; j++) {
                assertEquals(hvg[g] ? subset.getDouble(a * K + j) : 0, pcs.getDouble(g * K + j));
            }
            a += hvg[g] ? 1 : 0;
        }
    }

    static double[] column(DenseArray a, int j) {
        int rows = (int) a.shape()[0];
        int cols = (int) a.shape()[1];
        double[] c = new double[rows];
        for (int i = 0; i < rows; i++) {
            c[i] = a.getDouble(i * cols + j);
        }
        return c;
    }

    static double correlation(double[] a, double[] b) {
        double ma = 0;
        double mb = 0;
        for (int i = 0; i < a.length; i++) {
            ma += a[i];
            mb += b[i];
        }
        ma /= a.length;
        mb /= b.length;
        double sab = 0;
        double saa = 0;
        double sbb = 0;
        for (int i = 0; i < a.length; i++) {
            sab += (a[i] - ma) * (b[i] - mb);
            saa += (a[i] - ma) * (a[i] - ma);
            sbb += (b[i] - mb) * (b[i] - mb);
        }
        return sab / Math.sqrt(saa * sbb);
    }

    static double maxAbsDiff(double[] a, double[] b) {
        double d = 0;
        for (int i = 0; i < a.length; i++) {
            d = Math.max(d, Math.abs(a[i] - b[i]));
        }
        return d;
    }

    static double maxAbs(double[] a) {
        double d = 0;
        for (double v : a) {
            d = Math.max(d, Math.abs(v));
        }
        return d;
    }
}
