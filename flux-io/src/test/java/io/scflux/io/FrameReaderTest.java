/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.scflux.core.DType;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.NullableColumn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dataframes in every column encoding, checked against the values make_fixtures.py wrote. */
class FrameReaderTest {

    private static Frame frame(String fixture, String path) {
        try (HdfFile hdf = new HdfFile(Fixtures.path(fixture + ".h5ad"))) {
            return FrameReader.read(hdf.getByPath(path));
        }
    }

    @Test
    void everyColumnEncodingAnndata08Writes() {
        ExpectedValues expected = ExpectedValues.of("rich.anndata08");
        expected.assertFrame("obs", frame("rich.anndata08", "/obs"));
    }

    @Test
    void columnOrderIsTheWrittenOneNotTheStoredOne() {
        List<String> columns =
                List.copyOf(frame("rich.anndata08", "/obs").columns().keySet());
        List<String> byName = new ArrayList<>(columns);
        byName.sort(null);
        assertNotEquals(byName, columns, "the fixture must not have its columns in name order");
        assertEquals(ExpectedValues.of("rich.anndata08").list("obs.columns"), columns);
    }

    @Test
    void namedIndexAndNonAsciiNames() {
        ExpectedValues expected = ExpectedValues.of("rich.anndata08");
        Frame var = frame("rich.anndata08", "/var");
        assertEquals("gene_symbol", var.indexName());
        expected.assertFrame("var", var);
        expected.assertFrame("raw.var", frame("rich.anndata08", "/raw/var"));
        Frame obs = frame("rich.anndata08", "/obs");
        assertEquals("zelle-ü001", obs.index()[1]);
        assertEquals("细胞-002", obs.index()[2]);
        assertEquals(obs.size(), obs.column("größe").size());
    }

    @Test
    void unusedCategoriesAndWideCodesAreKept() {
        Frame obs = frame("rich.anndata08", "/obs");
        CategoricalColumn stage = (CategoricalColumn) obs.column("stage");
        assertEquals(4, stage.categories().size());
        assertEquals("unused_stage", stage.categories().get(3));
        CategoricalColumn many = (CategoricalColumn) obs.column("many");
        assertEquals(DType.INT16, many.codeType());
        CategoricalColumn clusters = (CategoricalColumn) obs.column("cluster_int");
        assertEquals(DType.INT64, clusters.categories().dtype());
    }

    @Test
    void dataframeInObsm() {
        ExpectedValues.of("rich.anndata08").assertFrame("obsm.meta", frame("rich.anndata08", "/obsm/meta"));
    }

    @Test
    void nullableStringArraysAsColumnsIndexAndCategories() {
        ExpectedValues expected = ExpectedValues.of("nullable-strings");
        Frame obs = frame("nullable-strings", "/obs");
        assertEquals(expected.list("obs.index"), List.of(obs.index()));
        assertEquals(expected.list("obs.columns"), List.copyOf(obs.columns().keySet()));
        for (String column : List.of("donor", "comment")) {
            NullableColumn c = (NullableColumn) obs.column(column);
            assertEquals("nullable-string-array", c.encoding());
            List<String> values = expected.list("obs.col." + column + ".values");
            List<String> mask = expected.list("obs.col." + column + ".mask");
            for (int i = 0; i < values.size(); i++) {
                ExpectedValues.assertValue(values.get(i), c.get(i), column + " row " + i);
                assertEquals(Boolean.parseBoolean(mask.get(i).toLowerCase()), c.mask()[i], column + " mask " + i);
            }
        }
        CategoricalColumn kind = (CategoricalColumn) obs.column("kind");
        expected.assertValues("obs.col.kind.categories", kind.categories());
        assertArrayEquals(
                expected.list("obs.col.kind.codes").stream()
                        .mapToInt(Integer::parseInt)
                        .toArray(),
                kind.codes());
        Frame var = frame("nullable-strings", "/var");
        assertEquals(expected.one("var.index_name"), var.indexName());
        assertEquals(expected.list("var.index"), List.of(var.index()));
        assertEquals(0, var.columns().size());
    }

    /**
     * Variable-length names are decoded when first asked for, through the file as it was read: the frame reads its
     * size, columns and the names' declared bytes now; a file changed in between is refused, naming it.
     */
    @Test
    void namesAreDecodedWhenFirstAskedForFromTheFileAsItWasRead(@TempDir Path dir) throws IOException {
        String[] cells = {"cell-ä", "细胞-b", "cell-c"};
        Path file = dir.resolve("names.h5ad");
        Frame written = new Frame(cells);
        written.put("n", ArrayColumn.of(new double[] {1, 2, 3}));
        H5ad.write(
                        new AnnData(
                                CsrMatrix.of(1, new long[4], new int[0], new float[0]),
                                written,
                                new Frame(new String[] {"g"})),
                        file)
                .block();
        Frame read = H5ad.read(file).obs();
        Frame stale = H5ad.read(file).obs();
        assertArrayEquals(cells, read.index());
        Files.setLastModifiedTime(
                file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 5000));
        assertEquals(3, stale.size());
        assertEquals(2.0, stale.column("n").get(1));
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, stale::names);
        assertTrue(e.getMessage().contains("the file changed since it was opened"), e.getMessage());
        assertEquals(file.toString(), e.file());
        assertArrayEquals(cells, read.index(), "names read before the change are kept");
    }
}
