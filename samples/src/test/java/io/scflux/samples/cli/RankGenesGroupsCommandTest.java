/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.RecordArray;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scflux rank-genes-groups} on synth-3k preprocessed by {@code scflux preprocess --target-sum 10000}: the table
 * says what the file holds, the strongest markers are scanpy's (flux-ops' RankGenesGroupsReferenceTest checks every
 * gene on scanpy's very input), and anndata reads the results as {@code sc.get.rank_genes_groups_df} does.
 */
class RankGenesGroupsCommandTest {

    /** scanpy 1.11.5's {@code rank_genes_groups(adata_log1p, "cell_type", method="wilcoxon")} on synth-3k. */
    private static final Path REFERENCE = Path.of("../flux-ops/src/test/resources/expected/rgg_wilcoxon.csv.gz");

    @TempDir
    static Path tmp;

    private static Path log1p;

    @BeforeAll
    static void preprocess() {
        log1p = tmp.resolve("log1p.h5ad");
        Cli c = Cli.run(
                "preprocess",
                TestFixtures.path("synth-3k.int64.h5ad").toString(),
                "-o",
                log1p.toString(),
                "--target-sum",
                "10000");
        assertEquals(0, c.exitCode(), c.err());
    }

    @Test
    void writesScanpysResultsAndTheirTable() throws IOException {
        Path out = tmp.resolve("wilcoxon.h5ad");
        Path csv = tmp.resolve("markers.csv");
        Cli c = Cli.run(
                "--threads",
                "2",
                "rank-genes-groups",
                log1p.toString(),
                "-o",
                out.toString(),
                "--groupby",
                "cell_type",
                "--method",
                "wilcoxon",
                "--pts",
                "--csv",
                csv.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertFalse(c.err().contains("raw count data"), "log data draw no warning: " + c.err());
        @SuppressWarnings("unchecked")
        Map<String, Object> results = (Map<String, Object>) H5ad.read(out).uns().get("rank_genes_groups");
        assertEquals(
                Set.of("params", "pts", "pts_rest", "names", "scores", "pvals", "pvals_adj", "logfoldchanges"),
                results.keySet());

        assertEquals(
                Files.getPosixFilePermissions(out),
                Files.getPosixFilePermissions(csv),
                "the table has the permissions of any new file, as OUT");
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(
                    List.of(),
                    files.filter(f -> f.getFileName().toString().endsWith(".tmp"))
                            .toList());
        }
        List<String[]> table = read(Files.newBufferedReader(csv));
        assertEquals(
                List.of("group", "rank", "names", "scores", "logfoldchanges", "pvals", "pvals_adj"),
                List.of(table.get(0)));
        assertEquals(1 + 8 * 2000, table.size(), "a row per group and gene");
        RecordArray names = (RecordArray) results.get("names");
        int row = 1;
        for (String group : names.fields().keySet()) {
            for (int i = 0; i < 2000; i++, row++) {
                String[] r = table.get(row);
                assertEquals(group, r[0]);
                assertEquals(String.valueOf(i), r[1]);
                assertEquals(names.field(group).strings()[i], r[2]);
                assertEquals(field(results, "scores", group).getDouble(i), Float.parseFloat(r[3]), group + " " + i);
                assertEquals(field(results, "logfoldchanges", group).getDouble(i), Float.parseFloat(r[4]));
                assertEquals(field(results, "pvals", group).getDouble(i), Double.parseDouble(r[5]));
                assertEquals(field(results, "pvals_adj", group).getDouble(i), Double.parseDouble(r[6]));
            }
        }

        // the 20 strongest markers of each group are scanpy's, with its scores (the input differs from scanpy's
        // in the last bit of 4% of the values: Java's log1p)
        List<String[]> reference = read(new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(REFERENCE)), StandardCharsets.UTF_8)));
        Map<String, Double> scanpy = new HashMap<>();
        Map<String, List<String>> top = new HashMap<>();
        for (String[] r : reference.subList(1, reference.size())) {
            scanpy.put(r[0] + " " + r[2], Double.parseDouble(r[3]));
            if (Integer.parseInt(r[1]) < 20) {
                top.computeIfAbsent(r[0], g -> new ArrayList<>()).add(r[2]);
            }
        }
        for (String group : names.fields().keySet()) {
            List<String> mine = List.of(names.field(group).strings()).subList(0, 20);
            assertEquals(new HashSet<>(top.get(group)), new HashSet<>(mine), group + ": the top 20");
            for (int i = 0; i < 20; i++) {
                double expected = scanpy.get(group + " " + mine.get(i));
                assertEquals(expected, field(results, "scores", group).getDouble(i), 1e-4 * Math.abs(expected));
            }
        }
    }

    /** anndata reads the results as scanpy's: dtypes, params, and the frame {@code rank_genes_groups_df} builds. */
    @Test
    void anndataReadsThemAsRankGenesGroupsDfDoes() throws IOException {
        Python.assumeAnndata();
        Path out = tmp.resolve("t-test.h5ad");
        Path csv = tmp.resolve("t-test.csv");
        Cli c = Cli.run(
                "rank-genes-groups",
                log1p.toString(),
                "-o",
                out.toString(),
                "--groupby",
                "cell_type",
                "--groups",
                "T03,T01",
                "--n-genes",
                "50",
                "--pts",
                "--csv",
                csv.toString());
        assertEquals(0, c.exitCode(), c.err());
        String script = String.join(
                "\n",
                "import sys, anndata as ad, pandas as pd, numpy as np",
                "a = ad.read_h5ad(sys.argv[1]); r = a.uns['rank_genes_groups']",
                "assert r['params']['method'] == 't-test' and r['params']['groupby'] == 'cell_type', r['params']",
                "assert r['params']['reference'] == 'rest' and r['params']['use_raw'] == False, r['params']",
                "assert r['params']['corr_method'] == 'benjamini-hochberg', r['params']",
                "assert r['names'].dtype.names == ('T03', 'T01'), r['names'].dtype",
                "assert r['scores'].dtype == np.dtype([('T03', '<f4'), ('T01', '<f4')]), r['scores'].dtype",
                "assert r['logfoldchanges'].dtype['T01'] == np.float32 and r['pvals'].dtype['T01'] == np.float64",
                "assert r['names'].shape == (50,) and isinstance(r['names']['T01'][0], str)",
                "assert list(r['pts'].columns) == ['T03', 'T01'] and list(r['pts'].index) == list(a.var_names)",
                "# sc.get.rank_genes_groups_df(a, group=None), as scanpy 1.11 builds it",
                "group = list(r['names'].dtype.names)",
                "cols = ['names', 'scores', 'logfoldchanges', 'pvals', 'pvals_adj']",
                "d = pd.concat([pd.DataFrame(r[c])[group] for c in cols], axis=1, names=[None, 'group'], keys=cols)",
                "d = d.stack(level=1).reset_index()",
                "d['group'] = pd.Categorical(d['group'], categories=group)",
                "d = d.sort_values(['group', 'level_0']).drop(columns='level_0')",
                "t = pd.read_csv(sys.argv[2])",
                "assert list(d['names']) == list(t['names']) and list(d['group']) == list(t['group'])",
                "for c in cols[1:]:",
                "    assert np.allclose(d[c].astype(float), t[c], rtol=1e-6, atol=0, equal_nan=True), c",
                "print('ok', len(d))");
        assertEquals(
                "ok 100", Python.run(script, out.toString(), csv.toString()).strip());
    }

    @Test
    void refusesBadOptionsAndWarnsOnCounts() {
        String counts = TestFixtures.path("synth-3k.int64.h5ad").toString();
        Path bad = tmp.resolve("bad.h5ad");
        Cli missing = Cli.run("rank-genes-groups", log1p.toString(), "-o", bad.toString(), "--groupby", "cluster");
        assertEquals(2, missing.exitCode(), "a column named and missing is a usage error");
        assertTrue(missing.err().contains("--groupby cluster is not an obs column"), missing.err());
        Cli logreg = Cli.run(
                "rank-genes-groups",
                log1p.toString(),
                "-o",
                bad.toString(),
                "--groupby",
                "cell_type",
                "--method",
                "logreg");
        assertEquals(2, logreg.exitCode());
        assertTrue(logreg.err().contains("logreg is not supported"), logreg.err());
        Cli reference = Cli.run(
                "rank-genes-groups",
                log1p.toString(),
                "-o",
                bad.toString(),
                "--groupby",
                "cell_type",
                "--reference",
                "T09");
        assertEquals(1, reference.exitCode(), reference.err());
        assertTrue(reference.err().contains("reference = T09 needs to be one of groupby = [T01,"), reference.err());
        assertFalse(Files.exists(bad), "nothing written");

        Path out = tmp.resolve("counts.h5ad");
        Cli c = Cli.run("rank-genes-groups", counts, "-o", out.toString(), "--groupby", "cell_type", "--n-genes", "5");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(
                c.err()
                        .contains("scflux: warning: It seems you use rank_genes_groups on the raw count data. "
                                + "Please logarithmize your data before calling rank_genes_groups."),
                c.err());
    }

    private static DenseArray field(Map<String, Object> results, String key, String group) {
        return ((RecordArray) results.get(key)).field(group);
    }

    private static List<String[]> read(BufferedReader in) throws IOException {
        try (in) {
            List<String[]> rows = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                rows.add(line.split(",", -1));
            }
            return rows;
        }
    }
}
