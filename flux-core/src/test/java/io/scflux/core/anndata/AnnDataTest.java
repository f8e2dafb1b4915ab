/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.scflux.core.DType;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Subsetting by positions, masks and names gives views that read X on demand and take the annotations along. */
class AnnDataTest {

    private static AnnData sample(CountingSource x) {
        String[] cells = {"c0", "c1", "c2", "c3", "c4", "c5"};
        String[] genes = {"g0", "g1", "g2", "MT-CO1"};
        Frame obs = new Frame(cells, "cell");
        obs.put("type", CategoricalColumn.fromValues(new String[] {"B", "T", "B", null, "NK", "T"}));
        obs.put("n", ArrayColumn.of(new int[] {10, 11, 12, 13, 14, 15}));
        obs.put(
                "ok",
                new NullableColumn(
                        DenseArray.of(new boolean[] {true, false, true, true, false, false}),
                        new boolean[] {false, false, true, false, false, false}));
        Frame var = new Frame(genes);
        var.put("mt", ArrayColumn.of(new boolean[] {false, false, false, true}));
        AnnData a = new AnnData(x, obs, var);
        a.putObsm(
                "X_pca",
                DenseArray.of(DType.FLOAT32, new float[] {0, 1, 10, 11, 20, 21, 30, 31, 40, 41, 50, 51}, 6, 2));
        a.putVarm("PCs", DenseArray.of(DType.FLOAT64, new double[] {1, 2, 3, 4}, 4, 1));
        a.putLayer("counts", x);
        a.uns().put("log1p", Map.of("base", DenseArray.scalar(2.0)));
        a.setRaw(new Raw(x, var));
        return a;
    }

    @Test
    void subsetByNamesMaskAndPositions() {
        CsrMatrix data = Matrices.random(6, 4, 0.6, 3);
        CountingSource x = CountingSource.of(data);
        AnnData a = sample(x);
        AnnData s = a.subset(Selection.names("c4", "c1"), Selection.mask(new boolean[] {true, false, true, true}));
        assertEquals(0, x.opened.get(), "subsetting reads nothing");
        assertEquals(2, s.nObs());
        assertEquals(3, s.nVars());
        assertEquals(java.util.List.of("c4", "c1"), java.util.List.of(s.obs().index()));
        assertEquals("cell", s.obs().indexName());
        assertEquals("NK", s.obs().column("type").get(0));
        assertEquals("T", s.obs().column("type").get(1));
        assertEquals(
                3, ((CategoricalColumn) s.obs().column("type")).categories().size(), "categories kept");
        assertEquals(11, s.obs().column("n").get(1));
        assertEquals(false, s.obs().column("ok").get(0));
        assertEquals(
                java.util.List.of("g0", "g2", "MT-CO1"),
                java.util.List.of(s.var().index()));
        assertEquals(true, s.var().column("mt").get(2));
        DenseArray pca = (DenseArray) s.obsm().get("X_pca");
        assertEquals(
                java.util.List.of(40f, 41f, 10f, 11f),
                java.util.List.of(
                        ((float[]) pca.data())[0],
                        ((float[]) pca.data())[1],
                        ((float[]) pca.data())[2],
                        ((float[]) pca.data())[3]));
        assertEquals(3, ((DenseArray) s.varm().get("PCs")).length());
        assertSame(a.uns().get("log1p"), s.uns().get("log1p"));
        assertEquals(4, s.raw().x().nCols(), "raw keeps all genes");
        assertEquals(2, s.raw().x().nRows());

        Matrices.assertSame(
                SubsetContractTest.denseSubset(data, new int[] {4, 1}, new int[] {0, 2, 3}),
                CsrMatrix.collect(s.x().blocks(), 3).block());
        Matrices.assertSame(
                SubsetContractTest.denseSubset(data, new int[] {4, 1}, new int[] {0, 2, 3}),
                CsrMatrix.collect(s.layers().get("counts").blocks(), 3).block());
        assertEquals(x.opened.get(), x.closed.get());
    }

    @Test
    void shapesAreChecked() {
        CsrMatrix data = Matrices.random(6, 4, 0.6, 3);
        AnnData a = sample(CountingSource.of(data));
        assertThrows(IllegalArgumentException.class, () -> a.putLayer("bad", Matrices.random(5, 4, 0.5, 1)));
        assertThrows(
                IllegalArgumentException.class,
                () -> a.putObsm("bad", DenseArray.of(DType.FLOAT32, new float[4], 2, 2)));
        assertThrows(IllegalArgumentException.class, () -> a.obs().put("short", ArrayColumn.of(new int[2])));
        assertThrows(IllegalArgumentException.class, () -> a.subset(Selection.names("nope"), Selection.all()));
        assertThrows(IndexOutOfBoundsException.class, () -> a.subset(Selection.of(6), Selection.all()));
        assertThrows(IllegalArgumentException.class, () -> a.subset(Selection.mask(new boolean[5]), Selection.all()));
    }

    @Test
    void reprListsTheElements() {
        AnnData a = sample(CountingSource.of(Matrices.random(6, 4, 0.6, 3)));
        assertEquals(
                "AnnData object with n_obs x n_vars = 6 x 4\n    obs: 'type', 'n', 'ok'\n    var: 'mt'\n"
                        + "    uns: 'log1p'\n    obsm: 'X_pca'\n    varm: 'PCs'\n    layers: 'counts'",
                a.toString());
    }
}
