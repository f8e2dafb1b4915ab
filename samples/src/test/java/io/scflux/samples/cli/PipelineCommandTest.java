/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.io.H5ad;
import io.scflux.ops.reference.Reference;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scflux pipeline} on synth-3k with the reference calls' parameters gives scanpy's HVGs and PCA, and reads X
 * from the file once when the cache holds the data.
 */
class PipelineCommandTest {

    @TempDir
    Path tmp;

    /**
     * With --neighbors --umap --leiden the tutorial goes on to clusters and a map: on scanpy's PCA (the reference
     * calls' parameters give it, see above) the clusters are scanpy's leiden of its neighbors (graph_leiden.csv): each
     * of its 7 clusters is one of ours, all but a handful of cells.
     */
    @Test
    void goesOnToScanpysClustersAndAMap() throws Exception {
        Path out = tmp.resolve("clusters.h5ad");
        Cli c = Cli.run(
                "pipeline",
                Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toString(),
                "-o",
                out.toString(),
                "--qc-var",
                "mt=MT-",
                "--target-sum",
                "10000",
                "--n-top-genes",
                "500",
                "--n-comps",
                "30",
                "--neighbors",
                "--umap",
                "--leiden");
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(out);
        assertArrayEquals(new long[] {3000, 2}, ((DenseArray) a.obsm().get("X_umap")).shape());
        assertTrue(a.obsp().containsKey("connectivities") && a.obsp().containsKey("distances"));
        Reference.Table scanpy = Reference.csv("graph_leiden");
        io.scflux.core.anndata.Column ours = a.obs().column("leiden");
        String[] names = a.obs().index();
        Map<String, Map<Object, Integer>> overlap = new java.util.HashMap<>();
        for (int i = 0; i < names.length; i++) {
            overlap.computeIfAbsent(scanpy.string(scanpy.row(names[i]), "leiden"), k -> new java.util.HashMap<>())
                    .merge(ours.get(i), 1, Integer::sum);
        }
        assertEquals(7, overlap.size());
        int agreeing = overlap.values().stream()
                .mapToInt(m ->
                        m.values().stream().mapToInt(Integer::intValue).max().orElse(0))
                .sum();
        assertTrue(
                agreeing >= 2990, agreeing + " of 3000 cells in the cluster of ours that holds their scanpy cluster");
    }

    @Test
    void matchesScanpyAndReadsTheFileOnce() throws Exception {
        Path out = tmp.resolve("pipeline.h5ad");
        Cli c = Cli.run(
                "--stats",
                "--threads",
                "2",
                "--chunk-nnz",
                "200000",
                "pipeline",
                Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toString(),
                "-o",
                out.toString(),
                "--qc-var",
                "mt=MT-",
                "--target-sum",
                "10000",
                "--n-top-genes",
                "500",
                "--n-comps",
                "30");
        assertEquals(0, c.exitCode(), c.err());
        var stats = new ObjectMapper()
                .readTree(c.err().strip().lines().reduce((a, b) -> b).orElseThrow());
        assertTrue(stats.get("blocks").asLong() > 5, stats.toString());
        assertEquals(
                stats.get("blocks").asLong(), stats.get("blocks_read_from_file").asLong(), stats.toString());
        assertEquals(
                3 * stats.get("blocks").asLong(),
                stats.get("cache").get("hits").asLong(),
                "the HVG and covariance passes and the write (X and X_pca in one pass) served from the cache");

        AnnData a = H5ad.read(out);
        boolean[] hv = (boolean[]) ((io.scflux.core.anndata.ArrayColumn) a.var().column("highly_variable"))
                .values()
                .data();
        assertArrayEquals(Reference.csv("hvg_seurat").bools("highly_variable"), hv);
        @SuppressWarnings("unchecked")
        DenseArray ratio = (DenseArray) ((Map<String, Object>) a.uns().get("pca")).get("variance_ratio");
        double[] expected = Reference.csv("pca_variance").doubles("variance_ratio");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], ratio.getDouble(i), 1e-4 * expected[i], "PC" + (i + 1));
        }
        DenseArray xPca = (DenseArray) a.obsm().get("X_pca");
        DenseArray ref = (DenseArray) Reference.h5ad("pca").obsm().get("X_pca");
        for (int pc = 0; pc < 30; pc++) {
            assertTrue(correlation(xPca, ref, pc) >= 0.9999, "PC" + (pc + 1) + " agrees with scanpy's, same sign");
        }
    }

    @Test
    void theSameBitsWithAnyCacheBudget() throws Exception {
        DenseArray[] pca = new DenseArray[3];
        String[] budgets = {"0", "1", "512"};
        for (int i = 0; i < budgets.length; i++) {
            Path out = tmp.resolve("pipeline-" + budgets[i] + ".h5ad");
            Cli c = Cli.run(
                    "--cache-mb",
                    budgets[i],
                    "--threads",
                    "2",
                    "--chunk-nnz",
                    "100000",
                    "pipeline",
                    Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toString(),
                    "-o",
                    out.toString(),
                    "--target-sum",
                    "10000",
                    "--n-top-genes",
                    "300",
                    "--n-comps",
                    "10");
            assertEquals(0, c.exitCode(), c.err());
            pca[i] = (DenseArray) H5ad.read(out).obsm().get("X_pca");
        }
        assertEquals(pca[0], pca[1], "no cache vs a cache smaller than the data");
        assertEquals(pca[0], pca[2], "no cache vs a cache holding the data");
    }

    private static double correlation(DenseArray a, DenseArray b, int col) {
        int n = a.length();
        int k = (int) a.shape()[1];
        double sa = 0;
        double sb = 0;
        double saa = 0;
        double sbb = 0;
        double sab = 0;
        for (int i = 0; i < n; i++) {
            double x = a.getDouble(i * k + col);
            double y = b.getDouble(i * k + col);
            sa += x;
            sb += y;
            saa += x * x;
            sbb += y * y;
            sab += x * y;
        }
        return (sab - sa * sb / n) / Math.sqrt((saa - sa * sa / n) * (sbb - sb * sb / n));
    }
}
