package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.jhdf.HdfFile;
import io.scflux.core.DType;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.NullableColumn;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

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
        List<String> columns = List.copyOf(frame("rich.anndata08", "/obs").columns().keySet());
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
        assertArrayEquals(expected.list("obs.col.kind.codes").stream().mapToInt(Integer::parseInt).toArray(),
                kind.codes());
        Frame var = frame("nullable-strings", "/var");
        assertEquals(expected.one("var.index_name"), var.indexName());
        assertEquals(expected.list("var.index"), List.of(var.index()));
        assertEquals(0, var.columns().size());
    }
}
