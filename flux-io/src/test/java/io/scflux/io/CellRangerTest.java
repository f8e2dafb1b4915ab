/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.PackedStrings;
import io.scflux.core.test.Matrices;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cell Ranger's HDF5 feature-barcode matrix, read as scanpy's {@code read_10x_h5} + {@code var_names_make_unique}
 * read it ({@code expected/read_10x_var.csv}, made by scanpy 1.11.5 from the reference Cell Ranger fixture), and
 * written in the layout Cell Ranger writes.
 */
class CellRangerTest {

    /** The reference counts (synth-3k, int64 indices): the Cell Ranger fixture holds the same counts. */
    private static final Path SYNTH = Fixtures.path("synth-3k.int64.h5ad");

    /** The reference Cell Ranger fixture, when ../shared is beside the checkout. */
    private static final Path SHARED = Path.of("../../shared/fixtures/synth-3k.cellranger.h5");

    @TempDir
    Path tmp;

    /**
     * synth-3k in Cell Ranger 3's layout as the reference fixture was made: genes 1 and 2 renamed to gene 0's name,
     * feature type Gene Expression, genome GRCh38.
     */
    private Path synthAsCellRanger() {
        AnnData in = H5ad.read(SYNTH);
        String[] names = in.var().index();
        names[1] = names[0];
        names[2] = names[0];
        Frame var = new Frame(names, null);
        var.put("gene_ids", in.var().column("gene_ids"));
        var.put("genome", new ArrayColumn(DenseArray.of(repeat("GRCh38", names.length))));
        Path out = tmp.resolve("synth.h5");
        H5ad.writeCellRanger(new AnnData(in.x(), in.obs().indexOnly(), var), out, WriteOptions.DEFAULT)
                .block();
        return out;
    }

    @Test
    void readsNamesAndColumnsAsScanpy() throws IOException {
        assertMatchesScanpy(synthAsCellRanger());
    }

    @Test
    void readsTheReferenceFixtureAsScanpy() throws IOException {
        Assumptions.assumeTrue(Files.exists(SHARED), "no " + SHARED + " (../shared is not beside the checkout)");
        assertMatchesScanpy(SHARED);
    }

    private static void assertMatchesScanpy(Path file) throws IOException {
        assertTrue(H5ad.isCellRanger(file));
        AnnData got = H5ad.read(file);
        AnnData synth = H5ad.read(SYNTH);
        List<String[]> rows = expected("read_10x_var.csv.gz");
        assertEquals(rows.size(), got.nVars());
        for (int g = 0; g < rows.size(); g++) {
            String[] r = rows.get(g);
            assertEquals(r[0], got.var().index()[g], "var name " + g);
            assertEquals(r[1], got.var().column("gene_ids").get(g), "gene_ids " + g);
            assertEquals(r[2], got.var().column("feature_types").get(g), "feature_types " + g);
            assertEquals(r[3], got.var().column("genome").get(g), "genome " + g);
        }
        assertEquals(
                List.of("gene_ids", "feature_types", "genome"),
                new ArrayList<>(got.var().columns().keySet()));
        // what anndata writes for a repeated string column: a categorical, here of one category
        assertInstanceOf(CategoricalColumn.class, got.var().column("feature_types"));
        assertInstanceOf(ArrayColumn.class, got.var().column("gene_ids"));
        assertArrayEquals(synth.obs().index(), got.obs().index());
        assertTrue(got.obs().columns().isEmpty());
        assertEquals(DType.FLOAT32, got.x().dtype(), "int32 counts are read as float32, as scanpy");
        assertEquals(DType.INT32, ((FileMatrix) got.x()).info().dtype());
        CsrMatrix counts = Fixtures.collect(got.x(), PlanTarget.ofChunkNnz(40_000), 3);
        assertEquals(Fixtures.SYNTH3K_NNZ, counts.nnz());
        assertEquals(Fixtures.SYNTH3K_SUM, Fixtures.sum(counts));
        Matrices.assertSame(Fixtures.collect(synth.x(), PlanTarget.DEFAULT, 1), counts);
    }

    @Test
    void writesTheLayoutCellRangerWrites() throws IOException {
        PythonProbe.assumeModule("h5py");
        Path file = synthAsCellRanger();
        Map<String, Object> got = PythonProbe.json("""
                import sys, json, h5py, numpy as np
                f = h5py.File(sys.argv[1], "r")
                m = f["matrix"]
                n = m["data"][:].astype(np.float64)
                print(json.dumps({
                    "types": [m[k].dtype.str for k in ("data", "indices", "indptr", "shape")],
                    "strings": [m[k].dtype.str[:2] for k in ("barcodes", "features/name", "features/id",
                                                             "features/feature_type", "features/genome")],
                    "shape": [int(v) for v in m["shape"][:]],
                    "nnz": int(m["indptr"][-1]), "sum": float(n.sum()),
                    "first_barcode": m["barcodes"][0].decode(), "tags": [t.decode() for t in
                                                                        m["features/_all_tag_keys"][:]],
                    "filetype": str(f.attrs["filetype"])}))
                """, file);
        assertEquals(List.of("<i4", "<i8", "<i8", "<i4"), got.get("types"));
        assertEquals(List.of("|S", "|S", "|S", "|S", "|S"), got.get("strings"));
        assertEquals(
                List.of(2000L, 3000L),
                ((List<?>) got.get("shape"))
                        .stream().map(v -> ((Number) v).longValue()).toList());
        assertEquals(Fixtures.SYNTH3K_NNZ, ((Number) got.get("nnz")).longValue());
        assertEquals(Fixtures.SYNTH3K_SUM, ((Number) got.get("sum")).doubleValue());
        assertEquals(H5ad.read(SYNTH).obs().index()[0], got.get("first_barcode"));
        assertEquals(List.of("genome"), got.get("tags"));
        assertEquals("matrix", got.get("filetype"));
    }

    @Test
    void keepsGeneExpressionUnlessAllFeaturesAreAsked() {
        Path file = tmp.resolve("mixed.h5");
        CsrMatrix counts = Matrices.of(new float[] {1, 0, 5, 2}, new float[] {0, 3, 7, 0});
        Frame var = new Frame(new String[] {"CD3E", "CD3E", "CD3_TotalSeqB", "MS4A1"}, null);
        var.put("feature_types", CategoricalColumn.fromValues(new String[] {
            "Gene Expression", "Gene Expression", "Antibody Capture", "Gene Expression"
        }));
        var.put("gene_ids", new ArrayColumn(DenseArray.of(new String[] {"E1", "E2", "CD3", "E3"})));
        H5ad.writeCellRanger(
                        new AnnData(counts, new Frame(new String[] {"AAA-1", "CCC-1"}, null), var),
                        file,
                        WriteOptions.DEFAULT)
                .block();

        AnnData gex = H5ad.read(file);
        assertArrayEquals(new String[] {"CD3E", "CD3E-1", "MS4A1"}, gex.var().index());
        CategoricalColumn types = (CategoricalColumn) gex.var().column("feature_types");
        assertArrayEquals(new String[] {"Gene Expression"}, types.categories().strings(), "no unused category");
        Matrices.assertSame(
                Matrices.of(new float[] {1, 0, 2}, new float[] {0, 3, 0}),
                Fixtures.collect(gex.x(), PlanTarget.DEFAULT, 1));

        AnnData all = H5ad.read(file, CellRangerOptions.defaults().withAllFeatures());
        assertArrayEquals(
                new String[] {"CD3E", "CD3E-1", "CD3_TotalSeqB", "MS4A1"},
                all.var().index());
        assertEquals("Antibody Capture", all.var().column("feature_types").get(2));
        Matrices.assertSame(counts, Fixtures.collect(all.x(), PlanTarget.DEFAULT, 1));
    }

    @Test
    void readsCellRanger2AndAsksForTheGenomeWhenThereAreSeveral() {
        Path file = tmp.resolve("v2.h5");
        try (NativeHdf5 h5 = NativeHdf5.create(file, "v2.h5", -1);
                NativeHdf5.Group root = h5.root()) {
            legacyGenome(root, "GRCh38", new String[] {"ENSG1", "ENSG2", "ENSG3"}, new String[] {"A", "B", "A"});
            legacyGenome(root, "mm10", new String[] {"ENSMUSG1", "ENSMUSG2", "ENSMUSG3"}, new String[] {"a", "b", "c"});
        }
        ScfluxFormatException several = assertThrows(ScfluxFormatException.class, () -> H5ad.read(file));
        assertTrue(
                several.getMessage().contains("[GRCh38, mm10]")
                        && several.getMessage().contains("--genome"),
                several.getMessage());

        AnnData human = H5ad.read(file, CellRangerOptions.defaults().withGenome("GRCh38"));
        assertArrayEquals(new String[] {"A", "B", "A-1"}, human.var().index());
        assertArrayEquals(new String[] {"AAAC-1", "AAAG-1"}, human.obs().index());
        assertEquals(List.of("gene_ids"), new ArrayList<>(human.var().columns().keySet()));
        assertEquals("ENSG3", human.var().column("gene_ids").get(2));
        // barcodes x genes: column pointers are per barcode, so barcode 0 holds gene 0 (4) and gene 2 (1)
        Matrices.assertSame(
                Matrices.of(new float[] {4, 0, 1}, new float[] {0, 6, 0}),
                Fixtures.collect(human.x(), PlanTarget.DEFAULT, 1));

        ScfluxFormatException unknown = assertThrows(
                ScfluxFormatException.class,
                () -> H5ad.read(file, CellRangerOptions.defaults().withGenome("hg19")));
        assertTrue(unknown.getMessage().contains("no genome 'hg19'"), unknown.getMessage());
    }

    private static void legacyGenome(NativeHdf5.Group root, String genome, String[] ids, String[] names) {
        try (NativeHdf5.Group g = root.group(genome)) {
            g.dataset("data", DType.INT32, DenseArray.of(new int[] {4, 1, 6})).close();
            g.dataset("indices", DType.INT64, DenseArray.of(new long[] {0, 2, 1}))
                    .close();
            g.dataset("indptr", DType.INT64, DenseArray.of(new long[] {0, 2, 3}))
                    .close();
            g.dataset("shape", DType.INT32, DenseArray.of(new int[] {3, 2})).close();
            g.fixedStrings("barcodes", PackedStrings.of(new String[] {"AAAC-1", "AAAG-1"}))
                    .close();
            g.fixedStrings("genes", PackedStrings.of(ids)).close();
            g.fixedStrings("gene_names", PackedStrings.of(names)).close();
        }
    }

    @Test
    void aShapeThatDisagreesWithTheNamesIsAnErrorNamingThePath() {
        Path file = tmp.resolve("bad.h5");
        try (NativeHdf5 h5 = NativeHdf5.create(file, "bad.h5", -1);
                NativeHdf5.Group root = h5.root();
                NativeHdf5.Group g = root.group("GRCh38")) {
            g.dataset("data", DType.INT32, DenseArray.of(new int[] {4})).close();
            g.dataset("indices", DType.INT64, DenseArray.of(new long[] {0})).close();
            g.dataset("indptr", DType.INT64, DenseArray.of(new long[] {0, 1, 1}))
                    .close();
            g.dataset("shape", DType.INT32, DenseArray.of(new int[] {3, 2})).close();
            g.fixedStrings("barcodes", PackedStrings.of(new String[] {"AAAC-1", "AAAG-1"}))
                    .close();
            g.fixedStrings("genes", PackedStrings.of(new String[] {"E1", "E2"})).close();
            g.fixedStrings("gene_names", PackedStrings.of(new String[] {"A", "B"}))
                    .close();
        }
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> H5ad.read(file));
        assertTrue(e.getMessage().startsWith(file + ": /GRCh38"), e.getMessage());
        assertTrue(
                e.getMessage().contains("3 features") && e.getMessage().contains("found 2 features"), e.getMessage());
    }

    @Test
    void refusesCountsThatAreNotWholeNumbers() {
        Path file = tmp.resolve("fraction.h5");
        AnnData data = AnnData.of(Matrices.of(new float[] {1, 0}, new float[] {0, 2.5f}));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> H5ad.writeCellRanger(data, file, WriteOptions.DEFAULT).block());
        assertTrue(e.getMessage().contains("2.5 at cell 1, gene 1"), e.getMessage());
        assertFalse(Files.exists(file));
    }

    private static List<String[]> expected(String name) throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(CellRangerTest.class.getResourceAsStream("/expected/" + name)),
                StandardCharsets.UTF_8))) {
            r.readLine();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                rows.add(line.split(",", -1));
            }
        }
        return rows;
    }

    private static String[] repeat(String value, int n) {
        String[] out = new String[n];
        java.util.Arrays.fill(out, value);
        return out;
    }
}
