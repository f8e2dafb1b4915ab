/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.DenseArray;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** anndata 0.7's layout is read; anndata 0.6's is rejected, saying what was found. */
class LegacyLayoutTest {

    @Test
    void anndata07CategoriesSubgroupAndPlainColumns() {
        ExpectedValues expected = ExpectedValues.of("legacy-07");
        AnnData data = H5ad.read(Fixtures.path("legacy-07.h5ad"));
        assertEquals(expected.list("obs.index"), List.of(data.obs().index()));
        assertEquals(
                expected.list("obs.columns"), List.copyOf(data.obs().columns().keySet()));
        for (String column : List.of("cell_type", "stage")) {
            String key = "obs.col." + column;
            CategoricalColumn c =
                    assertInstanceOf(CategoricalColumn.class, data.obs().column(column), key);
            expected.assertValues(key + ".categories", c.categories());
            assertArrayEquals(
                    expected.list(key + ".codes").stream()
                            .mapToInt(Integer::parseInt)
                            .toArray(),
                    c.codes(),
                    key);
            assertEquals(Boolean.parseBoolean(expected.one(key + ".ordered").toLowerCase()), c.ordered(), key);
        }
        for (String column : List.of("n_counts", "name")) {
            List<String> values = expected.list("obs.col." + column + ".values");
            for (int i = 0; i < values.size(); i++) {
                ExpectedValues.assertValue(
                        values.get(i), data.obs().column(column).get(i), column + " row " + i);
            }
        }
        assertEquals(expected.one("var.index_name"), data.var().indexName());
        assertEquals(expected.list("var.index"), List.of(data.var().index()));
    }

    @Test
    void anndata07MatricesAndUnencodedElements() {
        ExpectedValues expected = ExpectedValues.of("legacy-07");
        AnnData data = H5ad.read(Fixtures.path("legacy-07.h5ad"));
        FileMatrix x = assertInstanceOf(FileMatrix.class, data.x());
        assertEquals(expected.number("X.nnz"), x.info().nnz());
        assertEquals(
                x.info().nnz(),
                ((FileMatrix) data.layers().get("counts")).info().nnz());
        assertEquals(expected.list("raw.var.index"), List.of(data.raw().var().index()));
        assertEquals(
                expected.number("raw.X.nnz"),
                ((FileMatrix) data.raw().x()).info().nnz());
        assertArrayEquals(new long[] {data.nObs(), 3}, ((DenseArray) data.obsm().get("X_pca")).shape());
        assertEquals("legacy", ((DenseArray) data.uns().get("title")).get(0));
        assertEquals(3L, ((DenseArray) data.uns().get("n")).get(0));
        Map<?, ?> sub = assertInstanceOf(Map.class, data.uns().get("sub"));
        assertEquals(4.0, ((DenseArray) sub.get("arr")).getDouble(2));
    }

    @Test
    void anndata06CompoundDataframesAreRejected() {
        ScfluxFormatException e =
                assertThrows(ScfluxFormatException.class, () -> H5ad.read(Fixtures.path("legacy-06.h5ad")));
        assertTrue(e.getMessage().contains("unsupported legacy layout"), e.getMessage());
        assertTrue(e.getMessage().contains("compound dataset"), e.getMessage());
        assertEquals("/obs", e.path());
        assertTrue(e.file().endsWith("legacy-06.h5ad"), e.file());
    }
}
