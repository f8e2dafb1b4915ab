/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.ops.reference.Embeddings;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.SingularOps_DDRM;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The randomized solver against the exact one on data both can do: 1500 cells x 200 genes of rank-6 structure plus
 * noise, a third of the entries zero, whose leading variances (about 24, 12.7, 7.6, 5.2, 2.9, 1.9, then the noise)
 * are well separated.
 */
class RandomizedPcaTest {

    private static final int N = 1500;
    private static final int P = 200;
    private static final int K = 6;
    private static final double[] SCALES = {50, 30, 18, 10, 6, 3.5};

    private static AnnData exact;
    private static AnnData randomized;

    static CsrMatrix planted(long seed) {
        Random random = new Random(seed);
        double[][] v = new double[K][P];
        for (double[] row : v) {
            for (int a = 0; a < P; a++) {
                row[a] = random.nextGaussian() / Math.sqrt(P);
            }
        }
        CsrMatrix.Builder b = CsrMatrix.builder(P);
        for (int r = 0; r < N; r++) {
            double[] u = new double[K];
            for (int j = 0; j < K; j++) {
                u[j] = random.nextGaussian() * Math.sqrt(SCALES[j]);
            }
            int[] idx = new int[P];
            float[] val = new float[P];
            int m = 0;
            for (int a = 0; a < P; a++) {
                if (random.nextInt(3) == 0) {
                    continue;
                }
                double x = 1 + 0.3 * random.nextGaussian();
                for (int j = 0; j < K; j++) {
                    x += u[j] * v[j][a];
                }
                idx[m] = a;
                val[m++] = (float) x;
            }
            b.addRow(Arrays.copyOf(idx, m), Arrays.copyOf(val, m));
        }
        return b.build();
    }

    private static AnnData pca(PcaOptions.Solver solver, int k) {
        return Pca.pca(
                        AnnData.of(planted(5)),
                        PcaOptions.defaults().withNComps(k).withSolver(solver),
                        Streaming.DEFAULT
                                .withTarget(PlanTarget.ofChunkNnz(20_000))
                                .withThreads(2))
                .block();
    }

    @BeforeAll
    static void run() {
        exact = pca(PcaOptions.Solver.COVARIANCE_EIGH, K + 1);
        randomized = pca(PcaOptions.Solver.RANDOMIZED, K);
    }

    @SuppressWarnings("unchecked")
    private static DenseArray uns(AnnData a, String key) {
        return (DenseArray) ((Map<String, Object>) a.uns().get("pca")).get(key);
    }

    @Test
    void variancesAgreeWithinOneInAMillion() {
        for (String key : new String[] {"variance", "variance_ratio"}) {
            DenseArray e = uns(exact, key);
            DenseArray r = uns(randomized, key);
            assertEquals(DType.FLOAT32, r.dtype());
            for (int j = 0; j < K; j++) {
                double rel = Math.abs(r.getDouble(j) - e.getDouble(j)) / e.getDouble(j);
                assertTrue(rel <= 1e-6, key + "[" + j + "]: " + r.getDouble(j) + " vs " + e.getDouble(j));
            }
        }
        DenseArray spectrum = uns(exact, "variance");
        for (int j = 0; j < K; j++) {
            assertTrue(spectrum.getDouble(j) > 1.3 * spectrum.getDouble(j + 1), "well separated: " + spectrum);
        }
    }

    /** Cosines of the principal angles, and of each pair of components, within 1e-8 of 1 (angles below 1.5e-4). */
    @Test
    void principalSubspacesAndSignsAgree() {
        DMatrixRMaj ve = matrix((DenseArray) exact.varm().get("PCs"), K);
        DMatrixRMaj vr = matrix((DenseArray) randomized.varm().get("PCs"), K);
        DMatrixRMaj cos = new DMatrixRMaj(K, K);
        CommonOps_DDRM.multTransA(ve, vr, cos);
        for (double s : SingularOps_DDRM.singularValues(cos)) {
            assertTrue(s >= 1 - 1e-8, "cosine of a principal angle: " + s);
        }
        for (int j = 0; j < K; j++) {
            assertTrue(cos.get(j, j) >= 1 - 1e-8, "component " + j + ": cosine " + cos.get(j, j));
        }
        DenseArray xe = Embeddings.xPca(exact);
        DenseArray xr = Embeddings.xPca(randomized);
        for (int j = 0; j < K; j++) {
            double r = PcaTest.correlation(PcaTest.column(xe, j), PcaTest.column(xr, j));
            assertTrue(r >= 1 - 1e-8, "X_pca column " + j + ": correlation " + r);
        }
    }

    /** The first {@code k} columns of a 2-D array. */
    private static DMatrixRMaj matrix(DenseArray a, int k) {
        int cols = (int) a.shape()[1];
        DMatrixRMaj m = new DMatrixRMaj((int) a.shape()[0], k);
        for (int i = 0; i < m.numRows; i++) {
            for (int j = 0; j < k; j++) {
                m.set(i, j, a.getDouble(i * cols + j));
            }
        }
        return m;
    }
}
