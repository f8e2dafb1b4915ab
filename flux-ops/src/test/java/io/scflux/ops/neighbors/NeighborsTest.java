/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.neighbors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.Threads;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.reference.Reference;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.test.StepVerifier;

/**
 * neighbors against scanpy's {@code sc.pp.neighbors(n_neighbors=15, use_rep="X_pca")} on the 3,000-cell fixture
 * (its exact path), entry for entry; the same bits on 1, 2 and 8 threads; the Gaussian kernel against its formula
 * computed here; and the refusals, the Reactor way.
 */
class NeighborsTest {

    /** scanpy's result, with the X_pca it was computed from. */
    private static final AnnData SCANPY = Reference.h5ad("graph_neighbors");

    private static AnnData points() {
        AnnData a = new AnnData(null, SCANPY.obs().indexOnly(), new Frame(new String[0]));
        a.putObsm("X_pca", SCANPY.obsm().get("X_pca"));
        return a;
    }

    private static AnnData run(NeighborsOptions options, Threads threads) {
        return Neighbors.neighbors(points(), options, new Streaming(PlanTarget.DEFAULT, threads.execution()))
                .block();
    }

    private static CsrMatrix csr(Object entry) {
        return CsrMatrix.collect(
                        ((io.scflux.core.BlockSource) entry).blocks(), ((io.scflux.core.BlockSource) entry).nCols())
                .block();
    }

    /** Row {@code r} as column to value. */
    private static Map<Integer, Double> row(CsrMatrix m, int r) {
        Map<Integer, Double> out = new HashMap<>();
        for (long k = m.indptr(r); k < m.indptr(r + 1); k++) {
            out.put(m.index(k), (double) m.value(k));
        }
        return out;
    }

    private static void assertSameEntries(String what, CsrMatrix expected, CsrMatrix actual, double rtol) {
        assertEquals(expected.nRows(), actual.nRows(), what + ": rows");
        assertEquals(expected.nnz(), actual.nnz(), what + ": stored entries");
        double worst = 0;
        for (int r = 0; r < expected.nRows(); r++) {
            Map<Integer, Double> e = row(expected, r);
            Map<Integer, Double> a = row(actual, r);
            assertEquals(e.keySet(), a.keySet(), what + ": the columns of row " + r);
            for (Map.Entry<Integer, Double> x : e.entrySet()) {
                double got = a.get(x.getKey());
                worst = Math.max(worst, Math.abs(got - x.getValue()) / Math.abs(x.getValue()));
            }
        }
        System.out.printf("neighbors %s: max relative error %.2e%n", what, worst);
        assertTrue(worst <= rtol, what + ": max relative error " + worst);
    }

    @Test
    void matchesScanpysExactPathEntryForEntry() {
        AnnData ours = run(NeighborsOptions.defaults(), Threads.TWO);
        CsrMatrix distances = csr(ours.obsp().get("distances"));
        CsrMatrix connectivities = csr(ours.obsp().get("connectivities"));
        assertSameEntries("distances", csr(SCANPY.obsp().get("distances")), distances, 0);
        assertSameEntries("connectivities", csr(SCANPY.obsp().get("connectivities")), connectivities, 1e-5);
        assertEquals(
                DType.FLOAT64,
                ((CsrMatrix) ours.obsp().get("distances")).dtype(),
                "scanpy's exact path stores float64 distances");
        assertEquals(DType.FLOAT32, ((CsrMatrix) ours.obsp().get("connectivities")).dtype());
        for (int r = 0; r < connectivities.nRows(); r++) {
            for (long k = connectivities.indptr(r) + 1; k < connectivities.indptr(r + 1); k++) {
                assertTrue(connectivities.index(k - 1) < connectivities.index(k), "sorted indices, as scanpy's");
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> uns = (Map<String, Object>) ours.uns().get("neighbors");
        assertEquals("connectivities", uns.get("connectivities_key"));
        assertEquals("distances", uns.get("distances_key"));
        assertEquals(
                Map.of(
                        "n_neighbors", 15L,
                        "method", "umap",
                        "random_state", 0L,
                        "metric", "euclidean",
                        "use_rep", "X_pca"),
                uns.get("params"));
    }

    @ParameterizedTest
    @EnumSource(NeighborsOptions.Method.class)
    void theSameBitsOnAnyThreadCount(NeighborsOptions.Method method) {
        NeighborsOptions options = NeighborsOptions.defaults().withMethod(method);
        AnnData one = run(options, Threads.ONE);
        for (Threads t : new Threads[] {Threads.TWO, Threads.EIGHT}) {
            AnnData other = run(options, t);
            for (String key : new String[] {"distances", "connectivities"}) {
                CsrMatrix a = csr(one.obsp().get(key));
                CsrMatrix b = csr(other.obsp().get(key));
                assertEquals(a.nnz(), b.nnz(), key);
                for (long k = 0; k < a.nnz(); k++) {
                    assertEquals(a.index(k), b.index(k), key);
                    assertEquals(Float.floatToIntBits(a.value(k)), Float.floatToIntBits(b.value(k)), key);
                }
            }
        }
    }

    @Test
    void theGaussianKernelIsItsFormulaOnTheMutualPattern() {
        // five points on a line; with n_neighbors 3 each cell's others are its two nearest
        float[] x = {0f, 1f, 3f, 6f, 10f};
        AnnData a = new AnnData(null, new Frame(new String[] {"a", "b", "c", "d", "e"}), new Frame(new String[0]));
        a.putObsm("X_pca", DenseArray.of(DType.FLOAT32, x, 5, 1));
        NeighborsOptions options =
                NeighborsOptions.defaults().withNNeighbors(3).withMethod(NeighborsOptions.Method.GAUSS);
        CsrMatrix w = csr(Neighbors.neighbors(a, options, Streaming.DEFAULT)
                .block()
                .obsp()
                .get("connectivities"));
        int[][] others = {{1, 2}, {0, 2}, {1, 0}, {2, 4}, {3, 2}}; // cell 2's tie (0 and 3 at 3) goes to 0
        double[] s2 = new double[5];
        for (int i = 0; i < 5; i++) {
            double d0 = x[i] - x[others[i][0]];
            double d1 = x[i] - x[others[i][1]];
            s2[i] = (d0 * d0 + d1 * d1) / 2; // the median of two squared distances
        }
        for (int i = 0; i < 5; i++) {
            Map<Integer, Double> r = row(w, i);
            for (int j = 0; j < 5; j++) {
                boolean edge = contains(others[i], j) || contains(others[j], i);
                assertEquals(edge, r.containsKey(j), "edge " + i + "-" + j);
                if (edge) {
                    double d = x[i] - x[j];
                    double den = s2[i] + s2[j];
                    double expected = Math.sqrt(2 * Math.sqrt(s2[i]) * Math.sqrt(s2[j]) / den) * Math.exp(-d * d / den);
                    assertEquals(expected, r.get(j), 1e-6 * expected, "w " + i + "-" + j);
                }
            }
        }
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    @Test
    void cosineDistancesAreOneMinusTheCosineOnScanpysApproximateLayout() {
        float[] x = {1f, 0f, 0f, 2f, 1f, 1f};
        AnnData a = new AnnData(null, new Frame(new String[] {"a", "b", "c"}), new Frame(new String[0]));
        a.putObsm("X_pca", DenseArray.of(DType.FLOAT32, x, 3, 2));
        NeighborsOptions options =
                NeighborsOptions.defaults().withNNeighbors(2).withMetric(NeighborsOptions.Metric.COSINE);
        Object stored = Neighbors.neighbors(a, options, Streaming.DEFAULT)
                .block()
                .obsp()
                .get("distances");
        assertEquals(DType.FLOAT32, ((CsrMatrix) stored).dtype(), "scanpy takes pynndescent's path for cosine");
        CsrMatrix d = csr(stored);
        double cos45 = 1 - Math.sqrt(0.5);
        // each row: the cell itself (an explicit 0), then its nearest by angle
        assertArrayEquals(
                new int[] {0, 2, 1, 2, 2, 0},
                new int[] {d.index(0), d.index(1), d.index(2), d.index(3), d.index(4), d.index(5)});
        assertEquals(0, d.value(0));
        assertEquals(cos45, d.value(1), 1e-6);
        assertEquals(cos45, d.value(3), 1e-6);
    }

    @Test
    void aMissingRepresentationOrTooManyNeighborsIsRefusedOnSubscription() {
        AnnData none = new AnnData(null, SCANPY.obs().indexOnly(), new Frame(new String[0]));
        StepVerifier.create(Neighbors.neighbors(none, NeighborsOptions.defaults(), Streaming.DEFAULT))
                .expectErrorSatisfies(e -> {
                    assertTrue(e instanceof InvalidParameterException, e.toString());
                    assertTrue(
                            e.getMessage().contains("X_pca") && e.getMessage().contains("run pca"), e.getMessage());
                })
                .verify();
        StepVerifier.create(Neighbors.neighbors(
                        points(), NeighborsOptions.defaults().withNNeighbors(3001), Streaming.DEFAULT))
                .expectErrorMatches(
                        e -> e.getMessage().contains("3001") && e.getMessage().contains("3000 cells"))
                .verify();
        assertThrows(
                InvalidParameterException.class,
                () -> NeighborsOptions.defaults().withNNeighbors(1));
    }
}
