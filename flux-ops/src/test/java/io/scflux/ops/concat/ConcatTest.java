/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.DenseMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.NullableColumn;
import io.scflux.core.test.Matrices;
import io.scflux.ops.Pp;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * The anndata/pandas rules of {@link Concat} on small containers whose answers are worked out by hand: gene order of
 * each join, obs columns with missing values, category unions, labels and names, what is kept besides X.
 */
class ConcatTest {

    private static AnnData data(String[] cells, String[] genes, long seed) {
        CsrMatrix x = Matrices.random(cells.length, genes.length, 0.5, seed);
        return new AnnData(x, new Frame(cells), new Frame(genes));
    }

    private static final String[] CELLS_A = {"c1", "c2", "c3"};
    private static final String[] CELLS_B = {"c1", "c9"};

    @Test
    void innerJoinKeepsTheFirstInputsOrderAndOuterSortsTheUnion() {
        AnnData a = data(CELLS_A, new String[] {"Z", "b", "A", "m"}, 1);
        AnnData b = data(CELLS_B, new String[] {"m", "A", "q", "Z"}, 2);
        ConcatOptions o = ConcatOptions.defaults();
        assertArrayEquals(
                new String[] {"Z", "A", "m"},
                Concat.concat(List.of(a, b), o).var().index());
        assertArrayEquals(
                new String[] {"A", "Z", "b", "m", "q"},
                Concat.concat(List.of(a, b), o.withJoin(ConcatOptions.Join.OUTER))
                        .var()
                        .index());
        AnnData same = data(CELLS_B, new String[] {"Z", "b", "A", "m"}, 3);
        assertArrayEquals(
                new String[] {"Z", "b", "A", "m"},
                Concat.concat(List.of(a, same), o.withJoin(ConcatOptions.Join.OUTER))
                        .var()
                        .index(),
                "equal gene lists keep their order");
    }

    @Test
    void labelsKeysAndUniqueNames() {
        AnnData a = data(CELLS_A, new String[] {"g"}, 1);
        AnnData b = data(CELLS_B, new String[] {"g"}, 2);
        a.obs().put("batch", ArrayColumn.of(new String[] {"x", "y", "x"}));
        AnnData r = Concat.concat(
                List.of(a, b), ConcatOptions.defaults().withLabel("batch").withIndexUnique("_"));
        assertArrayEquals(
                new String[] {"c1_0", "c2_0", "c3_0", "c1_1", "c9_1"}, r.obs().index());
        CategoricalColumn label =
                assertInstanceOf(CategoricalColumn.class, r.obs().column("batch"));
        assertArrayEquals(new String[] {"0", "1"}, label.categories().strings());
        assertArrayEquals(new int[] {0, 0, 0, 1, 1}, label.codes());
        AnnData k = Concat.concat(
                List.of(a, b), ConcatOptions.defaults().withLabel("src").withKeys(List.of("zeta", "alpha")));
        assertArrayEquals(new String[] {"c1", "c2", "c3", "c1", "c9"}, k.obs().index(), "names kept without sep");
        assertArrayEquals(
                new String[] {"zeta", "alpha"},
                ((CategoricalColumn) k.obs().column("src")).categories().strings(),
                "keys in the order given");
        assertFalse(k.obs().has("batch"), "inner join drops a column b lacks");
        assertThrows(
                IllegalArgumentException.class,
                () -> Concat.concat(List.of(a, b), ConcatOptions.defaults().withKeys(List.of("one"))));
    }

    @Test
    void outerObsColumnsFillMissingValuesAsPandasDoes() {
        AnnData a = data(CELLS_A, new String[] {"g"}, 1);
        AnnData b = data(CELLS_B, new String[] {"g"}, 2);
        a.obs().put("n", ArrayColumn.of(new int[] {1, 2, 3}));
        a.obs().put("f", ArrayColumn.of(new float[] {0.5f, 1, 2}));
        a.obs().put("ok", ArrayColumn.of(new boolean[] {true, false, true}));
        a.obs().put("s", ArrayColumn.of(new String[] {"u", "v", "u"}));
        b.obs().put("i", new NullableColumn(DenseArray.of(new long[] {7, 8}), new boolean[] {false, true}));
        AnnData r = Concat.concat(List.of(a, b), ConcatOptions.defaults().withJoin(ConcatOptions.Join.OUTER));
        assertEquals(
                List.of("n", "f", "ok", "s", "i"), List.copyOf(r.obs().columns().keySet()));
        DenseArray n = ((ArrayColumn) r.obs().column("n")).values();
        assertEquals(DType.FLOAT64, n.dtype(), "integers with NaN are float64");
        assertArrayEquals(new double[] {1, 2, 3, Double.NaN, Double.NaN}, (double[]) n.data());
        assertEquals(DType.FLOAT32, ((ArrayColumn) r.obs().column("f")).values().dtype(), "float32 stays float32");
        Column ok = r.obs().column("ok");
        assertEquals("boolean", ok.typeName());
        assertEquals(true, ok.get(0));
        assertNull(ok.get(4));
        CategoricalColumn s = assertInstanceOf(CategoricalColumn.class, r.obs().column("s"));
        assertArrayEquals(new int[] {0, 1, 0, -1, -1}, s.codes());
        Column i = r.obs().column("i");
        assertEquals("Int64", i.typeName());
        assertNull(i.get(0));
        assertEquals(7L, i.get(3));
        assertNull(i.get(4));
    }

    @Test
    void categoriesAreUnitedInNaturalOrder() {
        AnnData a = data(CELLS_A, new String[] {"g"}, 1);
        AnnData b = data(CELLS_B, new String[] {"g"}, 2);
        a.obs().put("t", CategoricalColumn.fromValues(new String[] {"T10", "T2", "T10"}));
        b.obs().put("t", CategoricalColumn.fromValues(new String[] {"T1", "T2"}));
        CategoricalColumn t = (CategoricalColumn)
                Concat.concat(List.of(a, b), ConcatOptions.defaults()).obs().column("t");
        assertArrayEquals(new String[] {"T1", "T2", "T10"}, t.categories().strings());
        assertArrayEquals(new int[] {2, 1, 2, 0, 1}, t.codes());
        assertFalse(t.ordered());
    }

    @Test
    void layersAndObsmOnlyWhereEveryInputHasThem() {
        AnnData a = data(CELLS_A, new String[] {"g", "h"}, 1);
        AnnData b = data(CELLS_B, new String[] {"h", "g"}, 2);
        a.putLayer("counts", Matrices.random(3, 2, 0.5, 5));
        b.putLayer("counts", Matrices.random(2, 2, 0.5, 6));
        a.putLayer("only_a", Matrices.random(3, 2, 0.5, 7));
        a.putObsm("X_pca", DenseArray.of(DType.FLOAT32, new float[] {1, 2, 3, 4, 5, 6}, 3, 2));
        b.putObsm("X_pca", DenseArray.of(DType.FLOAT64, new double[] {7, 8, 9, 10}, 2, 2));
        b.uns().put("x", DenseArray.scalar(1));
        AnnData r = Concat.concat(List.of(a, b), ConcatOptions.defaults());
        assertEquals(List.of("counts"), List.copyOf(r.layers().keySet()));
        DenseArray pca = (DenseArray) r.obsm().get("X_pca");
        assertEquals(DType.FLOAT64, pca.dtype());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, (double[]) pca.data());
        assertTrue(r.uns().isEmpty());
        assertEquals(0, r.var().columns().size(), "var annotations dropped (merge=None)");
    }

    @Test
    void denseInputsArePaddedWithNaNAndSparseOnesWithImplicitZeros() {
        AnnData a = new AnnData(
                DenseMatrix.of(2, 2, new double[] {1, 2, 3, 4}),
                new Frame(new String[] {"x", "y"}),
                new Frame(new String[] {"g", "h"}));
        AnnData b = new AnnData(
                DenseMatrix.of(1, 1, new double[] {5}), new Frame(new String[] {"z"}), new Frame(new String[] {"k"}));
        ConcatOptions outer = ConcatOptions.defaults().withJoin(ConcatOptions.Join.OUTER);
        AnnData r = Concat.concat(List.of(a, b), outer);
        assertTrue(r.x().isDense());
        float nan = Float.NaN;
        assertArrayEquals(
                new float[] {1, 2, nan, 3, 4, nan, nan, nan, 5},
                (float[]) DenseArray.materialize(r.x()).data(),
                "genes g, h, k");
        AnnData s = Concat.concat(List.of(a, data(CELLS_B, new String[] {"k"}, 4)), outer);
        assertFalse(s.x().isDense());
        assertArrayEquals(
                new float[] {1, 2, 0, 3, 4, 0},
                Arrays.copyOf((float[]) DenseArray.materialize(s.x()).data(), 6),
                "a sparse input: zeros");
        AnnData f = Concat.concat(List.of(a, b), outer.withFillValue(-1f));
        assertArrayEquals(new float[] {1, 2, -1, 3, 4, -1, -1, -1, 5}, (float[])
                DenseArray.materialize(f.x()).data());
    }

    @Test
    void ppConcatEmitsTheContainerOnSubscription() {
        AnnData a = data(CELLS_A, new String[] {"g"}, 1);
        StepVerifier.create(Pp.concat(List.of(a, a), ConcatOptions.defaults().withIndexUnique("-")))
                .assertNext(r -> assertArrayEquals(
                        new String[] {"c1-0", "c2-0", "c3-0", "c1-1", "c2-1", "c3-1"},
                        r.obs().index()))
                .verifyComplete();
    }

    @Test
    void duplicateGeneNamesAreRefused() {
        AnnData a = data(CELLS_A, new String[] {"g", "g"}, 1);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Concat.concat(List.of(a, a), ConcatOptions.defaults()));
        assertTrue(e.getMessage().contains("input 0"), e.getMessage());
    }
}
