/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.io.test.TestFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command that reads an input reads a Cell Ranger {@code .h5} too: {@code info} describes it, {@code convert}
 * and the operators write a proper {@code .h5ad} from it (read back by anndata), {@code synth --format cellranger}
 * writes one, and an in-place rewrite of one is refused.
 */
class CellRangerCommandTest {

    @TempDir
    Path tmp;

    /** synth-3k's counts and names in Cell Ranger 3's layout. */
    private Path cellRanger() {
        AnnData counts = H5ad.read(TestFixtures.path("synth-3k.int64.h5ad"));
        Path file = tmp.resolve("filtered_feature_bc_matrix.h5");
        H5ad.writeCellRanger(counts, file, WriteOptions.DEFAULT).block();
        return file;
    }

    @Test
    void infoDescribesIt() throws Exception {
        Cli c = Cli.run("info", "--json", cellRanger().toString());
        assertEquals(0, c.exitCode(), c.err());
        JsonNode info = new ObjectMapper().readTree(c.out());
        assertEquals(3000, info.get("n_obs").asInt());
        assertEquals(2000, info.get("n_vars").asInt());
        assertEquals("cellranger", info.get("x").get("encoding").asText());
        assertEquals("int32", info.get("x").get("dtype").asText());
        assertEquals("category(1)", info.get("var").get("feature_types").asText());
        assertEquals(2953988.0, info.get("x_sum").asDouble(), "synth-3k's sum, as anndata computed it");
    }

    @Test
    void convertWritesWhatReadTenxH5Reads() throws Exception {
        Path out = tmp.resolve("pbmc.h5ad");
        Cli c = Cli.run("convert", cellRanger().toString(), "-o", out.toString());
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(out);
        AnnData synth = H5ad.read(TestFixtures.path("synth-3k.int64.h5ad"));
        assertArrayEquals(synth.obs().index(), a.obs().index());
        assertArrayEquals(synth.var().index(), a.var().index());
        CsrMatrix expected = CsrMatrix.collect(synth.x().blocks(), 2000).block();
        io.scflux.core.test.Matrices.assertSame(
                expected, CsrMatrix.collect(a.x().blocks(), 2000).block());
        Python.assumeAnndata();
        String script = """
                import sys, anndata
                a = anndata.read_h5ad(sys.argv[1])
                assert a.X.dtype == "float32", a.X.dtype
                assert str(a.var["feature_types"].dtype) == "category", a.var.dtypes
                assert list(a.var.columns) == ["gene_ids", "feature_types", "genome"], a.var.columns
                print(a.n_obs, a.n_vars, int(a.X.sum()), a.obs_names[0])
                """;
        assertEquals(
                "3000 2000 2953988 " + synth.obs().index()[0],
                Python.run(script, out.toString()).strip());
    }

    @Test
    void synthWritesACellRangerFileTheOperatorsRead() {
        Path file = tmp.resolve("synth.h5");
        Cli s = Cli.run("synth", "--cells", "500", "--genes", "300", "--format", "cellranger", "-o", file.toString());
        assertEquals(0, s.exitCode(), s.err());
        Path h5ad = tmp.resolve("synth.h5ad");
        assertEquals(
                0,
                Cli.run("synth", "--cells", "500", "--genes", "300", "-o", h5ad.toString())
                        .exitCode());
        Path fromTenx = tmp.resolve("qc-tenx.h5ad");
        Path fromH5ad = tmp.resolve("qc-h5ad.h5ad");
        Cli small = Cli.run("qc", file.toString(), "--qc-var", "mt=MT-", "-o", fromTenx.toString());
        assertEquals(2, small.exitCode(), "scanpy's default ranks reach past 300 genes");
        assertTrue(
                small.err()
                        .startsWith("scflux: error: the default --percent-top ranks 50,100,200,500 reach past "
                                + "the 300 genes"),
                small.err());
        assertEquals(
                0,
                Cli.run(
                                "qc",
                                file.toString(),
                                "--qc-var",
                                "mt=MT-",
                                "--percent-top",
                                "50,100,200",
                                "-o",
                                fromTenx.toString())
                        .exitCode());
        assertEquals(
                0,
                Cli.run(
                                "qc",
                                h5ad.toString(),
                                "--qc-var",
                                "mt=MT-",
                                "--percent-top",
                                "50,100,200",
                                "-o",
                                fromH5ad.toString())
                        .exitCode());
        AnnData a = H5ad.read(fromTenx);
        AnnData b = H5ad.read(fromH5ad);
        assertArrayEquals(b.obs().index(), a.obs().index(), "the same barcodes");
        for (String column : new String[] {"total_counts", "n_genes_by_counts", "pct_counts_mt"}) {
            assertEquals(b.obs().column(column), a.obs().column(column), column + " of the same counts");
        }
        assertEquals("GRCh38", a.var().column("genome").get(0));
    }

    @Test
    void aCellRangerFileIsNotRewrittenInPlace() {
        Path file = cellRanger();
        Cli c = Cli.run("log1p", file.toString(), "--in-place");
        assertEquals(2, c.exitCode(), c.err());
        assertTrue(c.err().contains("is a Cell Ranger file"), c.err());
        assertTrue(H5ad.isCellRanger(file));
    }
}
