/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.reference.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code filter-cells} and {@code filter-genes} as scanpy's tutorial calls them ({@code filter_obs.csv},
 * {@code filter_var.csv}), one criterion per call, and {@code pipeline --min-genes --min-cells}.
 */
class FilterCommandsTest {

    private static final String IN = TestFixtures.path("synth-3k.int64.h5ad").toString();

    @TempDir
    Path tmp;

    @Test
    void theTutorialsFiltersGiveScanpysCellsGenesAndColumns() {
        Path out = tmp.resolve("f.h5ad");
        Cli byCounts = Cli.run("filter-cells", IN, "--min-counts", "359", "-o", out.toString());
        assertEquals(0, byCounts.exitCode(), byCounts.err());
        Cli byGenes = Cli.run("--threads", "3", "filter-cells", out.toString(), "--min-genes", "220", "--in-place");
        assertEquals(0, byGenes.exitCode(), byGenes.err());
        Cli byCells = Cli.run("filter-genes", out.toString(), "--min-cells", "52", "--in-place");
        assertEquals(0, byCells.exitCode(), byCells.err());
        // scanpy's lines; the reference keeps 2833 of 3000 cells and 1801 of 2000 genes
        assertEquals(
                3000 - 2833,
                removed(byCounts, "cells that have less than 359 counts")
                        + removed(byGenes, "cells that have less than 220 genes expressed"));
        assertEquals(2000 - 1801, removed(byCells, "genes that are detected in less than 52 cells"));

        AnnData a = H5ad.read(out);
        Reference.Table obs = Reference.csv("filter_obs");
        Reference.Table var = Reference.csv("filter_var");
        assertArrayEquals(obs.rowNames(), a.obs().index());
        assertArrayEquals(var.rowNames(), a.var().index());
        assertColumn(obs.doubles("n_counts"), (ArrayColumn) a.obs().column("n_counts"), "float32");
        assertColumn(obs.doubles("n_genes"), (ArrayColumn) a.obs().column("n_genes"), "int64");
        assertColumn(var.doubles("n_cells"), (ArrayColumn) a.var().column("n_cells"), "int64");
        assertTrue(a.obs().has("sample") && a.var().has("gene_ids"), "the input's columns are kept");
    }

    @Test
    void oneCriterionPerCallAsScanpy() {
        Path out = tmp.resolve("x.h5ad");
        Cli two = Cli.run("filter-cells", IN, "--min-counts", "10", "--min-genes", "5", "-o", out.toString());
        assertEquals(2, two.exitCode());
        assertTrue(two.err().contains("mutually exclusive"), two.err());
        Cli none = Cli.run("filter-genes", IN, "-o", out.toString());
        assertEquals(2, none.exitCode());
        assertFalse(Files.exists(out));
    }

    @Test
    void pipelineFiltersBeforeQcAsTheTutorial() {
        Path piped = tmp.resolve("pipe.h5ad");
        Cli c = Cli.run(
                "pipeline",
                IN,
                "--min-genes",
                "220",
                "--min-cells",
                "52",
                "--n-top-genes",
                "100",
                "--n-comps",
                "5",
                "--qc-var",
                "mt=MT-",
                "-o",
                piped.toString());
        assertEquals(0, c.exitCode(), c.err());
        Path stepwise = tmp.resolve("steps.h5ad");
        assertEquals(
                0,
                Cli.run("filter-cells", IN, "--min-genes", "220", "-o", stepwise.toString())
                        .exitCode());
        assertEquals(
                0,
                Cli.run("filter-genes", stepwise.toString(), "--min-cells", "52", "--in-place")
                        .exitCode());
        AnnData expected = H5ad.read(stepwise);
        AnnData got = H5ad.read(piped);
        assertArrayEquals(expected.obs().index(), got.obs().index());
        assertArrayEquals(expected.var().index(), got.var().index());
        assertEquals(expected.obs().column("n_genes"), got.obs().column("n_genes"));
        assertEquals(expected.var().column("n_cells"), got.var().column("n_cells"));
        // QC ran on the filtered genes: each kept cell's total is its sum over the kept genes
        ArrayColumn total = (ArrayColumn) got.obs().column("total_counts");
        CsrMatrix counts =
                CsrMatrix.collect(expected.x().blocks(), expected.nVars()).block();
        for (int i = 0; i < counts.nRows(); i++) {
            double sum = 0;
            for (long k = counts.indptr(i); k < counts.indptr(i + 1); k++) {
                sum += counts.value(k);
            }
            assertEquals((float) sum, total.getDouble(i), "cell " + i);
        }
    }

    /** The number in the command's line {@code filtered out N <what>}. */
    private static int removed(Cli c, String what) {
        Matcher m = Pattern.compile("^filtered out (\\d+) " + Pattern.quote(what) + "$", Pattern.MULTILINE)
                .matcher(c.out());
        assertTrue(m.find(), c.out());
        return Integer.parseInt(m.group(1));
    }

    private static void assertColumn(double[] expected, ArrayColumn column, String dtype) {
        assertEquals(dtype, column.typeName());
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], column.getDouble(i), "row " + i);
        }
    }
}
