/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.RecordArray;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whole files: the shared synth-3k fixtures (anndata 0.12) and the rich anndata 0.8 file, element by element. */
class H5adReaderTest {

    private static final AnnData RICH = H5ad.read(Fixtures.path("rich.anndata08.h5ad"));
    private static final ExpectedValues EXPECTED = ExpectedValues.of("rich.anndata08");

    @ParameterizedTest
    @ValueSource(strings = {"synth-3k.csc-gzip", "synth-3k.int64", "synth-3k-b"})
    void sharedFixtures(String name) {
        ExpectedValues expected = ExpectedValues.of(name);
        AnnData data = H5ad.read(Fixtures.path(name + ".h5ad"));
        List<String> shape = expected.list("shape");
        assertEquals(Integer.parseInt(shape.get(0)), data.nObs());
        assertEquals(Integer.parseInt(shape.get(1)), data.nVars());
        assertEquals(data.nObs(), data.x().nRows());
        assertEquals(data.nVars(), data.x().nCols());
        for (String axis : List.of("obs", "var")) {
            Frame frame = axis.equals("obs") ? data.obs() : data.var();
            assertNull(frame.indexName());
            String[] index = frame.index();
            assertEquals(expected.list(axis + ".index.head"), List.of(index).subList(0, 5), axis + " names");
            assertEquals(
                    expected.list(axis + ".index.tail"),
                    List.of(index).subList(index.length - 5, index.length),
                    axis + " names");
            assertEquals(
                    expected.list(axis + ".columns"),
                    List.copyOf(frame.columns().keySet()),
                    axis + " columns");
            for (String column : frame.columns().keySet()) {
                assertSharedColumn(expected, axis + ".col." + column, frame.column(column));
            }
        }
    }

    private static void assertSharedColumn(ExpectedValues expected, String key, Column column) {
        if (expected.one(key + ".kind").equals("categorical")) {
            CategoricalColumn c = assertInstanceOf(CategoricalColumn.class, column, key);
            expected.assertValues(key + ".categories", c.categories());
            List<String> head = expected.list(key + ".codes.head");
            for (int i = 0; i < head.size(); i++) {
                assertEquals(Integer.parseInt(head.get(i)), c.codes()[i], key + " code " + i);
            }
            long[] counts = new long[c.categories().size()];
            for (int code : c.codes()) {
                counts[code]++;
            }
            assertArrayEquals(
                    expected.list(key + ".code_counts").stream()
                            .mapToLong(Long::parseLong)
                            .toArray(),
                    counts,
                    key + " codes per category");
        } else {
            List<String> head = expected.list(key + ".head");
            List<String> tail = expected.list(key + ".tail");
            for (int i = 0; i < head.size(); i++) {
                ExpectedValues.assertValue(head.get(i), column.get(i), key + " row " + i);
                int r = column.size() - tail.size() + i;
                ExpectedValues.assertValue(tail.get(i), column.get(r), key + " row " + r);
            }
        }
    }

    @Test
    void richShapeAndAnnotations() {
        List<String> shape = EXPECTED.list("shape");
        assertEquals(Integer.parseInt(shape.get(0)), RICH.nObs());
        assertEquals(Integer.parseInt(shape.get(1)), RICH.nVars());
        EXPECTED.assertFrame("obs", RICH.obs());
        EXPECTED.assertFrame("var", RICH.var());
    }

    @Test
    void richMatricesStayInTheFile() {
        assertMatrix("X", RICH.x());
        assertEquals(sorted(EXPECTED.list("layers")), sorted(RICH.layers().keySet()));
        assertMatrix("layers.counts", RICH.layers().get("counts"));
        FileMatrix dense = assertInstanceOf(FileMatrix.class, RICH.layers().get("dense"));
        assertEquals("array", dense.info().encoding());
        assertEquals(RICH.nObs(), dense.nRows());
    }

    @Test
    void richRaw() {
        EXPECTED.assertFrame("raw.var", RICH.raw().var());
        assertMatrix("raw.X", RICH.raw().x());
        assertEquals(Map.of(), RICH.raw().varm());
    }

    @Test
    void richObsmVarmObspVarp() {
        assertEquals(sorted(EXPECTED.list("obsm")), sorted(RICH.obsm().keySet()));
        assertEquals(sorted(EXPECTED.list("varm")), sorted(RICH.varm().keySet()));
        assertEquals(sorted(EXPECTED.list("obsp")), sorted(RICH.obsp().keySet()));
        assertEquals(sorted(EXPECTED.list("varp")), sorted(RICH.varp().keySet()));
        assertEmbedding("obsm.X_pca", RICH.obsm().get("X_pca"));
        assertEmbedding("varm.PCs", RICH.varm().get("PCs"));
        assertMatrix("obsm.sparse_emb", RICH.obsm().get("sparse_emb"));
        EXPECTED.assertFrame(
                "obsm.meta", assertInstanceOf(Frame.class, RICH.obsm().get("meta")));
        assertMatrix("obsp.distances", RICH.obsp().get("distances"));
        assertMatrix("varp.gene_graph", RICH.varp().get("gene_graph"));
    }

    @Test
    void richUnsScalarsArraysAndNestedDicts() {
        Map<String, Object> uns = RICH.uns();
        assertEquals(sorted(EXPECTED.list("uns.keys")), sorted(uns.keySet()));
        for (String key : List.of("title", "n", "pi", "flag", "arr", "strs", "mat", "cube")) {
            EXPECTED.assertArray("uns." + key, assertInstanceOf(DenseArray.class, uns.get(key), key));
        }
        assertEquals("rich fixture ✓", ((DenseArray) uns.get("title")).get(0));
        Map<?, ?> neighbors = assertInstanceOf(Map.class, uns.get("neighbors"));
        Map<?, ?> params = assertInstanceOf(Map.class, neighbors.get("params"));
        for (String key : List.of("n_neighbors", "method", "metric")) {
            EXPECTED.assertArray("uns.neighbors.params." + key, (DenseArray) params.get(key));
        }
        EXPECTED.assertArray("uns.neighbors.distances_key", (DenseArray) neighbors.get("distances_key"));
        assertEquals(Map.of(), uns.get("empty"));
    }

    @Test
    void richUnsCategoricalFrameSparseAndRecords() {
        Map<String, Object> uns = RICH.uns();
        CategoricalColumn cat = assertInstanceOf(CategoricalColumn.class, uns.get("cat"));
        EXPECTED.assertValues("uns.cat.categories", cat.categories());
        assertArrayEquals(
                EXPECTED.list("uns.cat.codes").stream()
                        .mapToInt(Integer::parseInt)
                        .toArray(),
                cat.codes());
        EXPECTED.assertFrame("uns.table", assertInstanceOf(Frame.class, uns.get("table")));
        assertMatrix("uns.sparse", uns.get("sparse"));
        RecordArray rank = assertInstanceOf(RecordArray.class, uns.get("rank"));
        assertEquals(EXPECTED.list("uns.rank.fields"), List.copyOf(rank.fields().keySet()));
        EXPECTED.assertValues("uns.rank.names", rank.field("names"));
        EXPECTED.assertValues("uns.rank.scores", rank.field("scores"));
    }

    @Test
    void fileWithoutX() {
        AnnData data = H5ad.read(Fixtures.path("nullable-strings.h5ad"));
        assertNull(data.x());
        List<String> shape = ExpectedValues.of("nullable-strings").list("shape");
        assertEquals(Integer.parseInt(shape.get(0)), data.nObs());
        assertEquals(Integer.parseInt(shape.get(1)), data.nVars());
    }

    /** Shape, encoding, stored entries and value type, as scipy reported them when the file was written. */
    private static void assertMatrix(String key, Object element) {
        FileMatrix m = assertInstanceOf(FileMatrix.class, element, key);
        List<String> shape = EXPECTED.list(key + ".shape");
        assertEquals(Long.parseLong(shape.get(0)), m.nRows(), key + " rows");
        assertEquals(Integer.parseInt(shape.get(1)), m.nCols(), key + " columns");
        assertEquals(EXPECTED.one(key + ".format"), m.info().encoding(), key + " encoding");
        assertEquals(EXPECTED.number(key + ".nnz"), m.info().nnz(), key + " nnz");
        assertEquals(EXPECTED.one(key + ".dtype"), m.info().dtype().numpyName(), key + " dtype");
    }

    /** Shape, dtype, first row and the sum (exact: the values are multiples of 1/8). */
    private static void assertEmbedding(String key, Object element) {
        DenseArray a = assertInstanceOf(DenseArray.class, element, key);
        assertArrayEquals(
                EXPECTED.list(key + ".shape").stream()
                        .mapToLong(Long::parseLong)
                        .toArray(),
                a.shape());
        assertEquals(EXPECTED.one(key + ".dtype"), a.dtype().numpyName());
        List<String> row0 = EXPECTED.list(key + ".row0");
        for (int j = 0; j < row0.size(); j++) {
            ExpectedValues.assertValue(row0.get(j), a.get(j), key + " [0, " + j + "]");
        }
        double sum = 0;
        for (int i = 0; i < a.size(); i++) {
            sum += a.getDouble(i);
        }
        assertEquals(Double.parseDouble(EXPECTED.one(key + ".sum")), sum, 0.0, key + " sum");
    }

    private static TreeSet<String> sorted(Collection<String> keys) {
        return new TreeSet<>(keys);
    }
}
