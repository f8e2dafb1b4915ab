/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.RowBlock;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.Matrices;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scflux concat} writes anndata's concatenation: the synth-3k pair gives anndata 0.12's names (flux-ops'
 * extracts of concat_outer.h5ad), and many small files with different genes give, read back, the dense stacking of
 * their matrices worked out here.
 */
class ConcatCommandTest {

    private static final Path EXPECTED = Path.of("../flux-ops/src/test/resources/expected");

    @TempDir
    Path tmp;

    private static String[] firstColumn(String file) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(EXPECTED.resolve(file))), StandardCharsets.UTF_8))) {
            return in.lines()
                    .skip(1)
                    .map(l -> l.substring(0, l.indexOf(',') < 0 ? l.length() : l.indexOf(',')))
                    .toArray(String[]::new);
        }
    }

    @Test
    void outerJoinOfTheSynthPairHasAnndatasNames() throws IOException {
        Path out = tmp.resolve("outer.h5ad");
        Cli c = Cli.run(
                "--threads",
                "2",
                "concat",
                TestFixtures.path("synth-3k.int64.h5ad").toString(),
                TestFixtures.path("synth-3k-b.h5ad").toString(),
                "-o",
                out.toString(),
                "--join",
                "outer",
                "--label",
                "batch",
                "--keys",
                "a,b",
                "--index-unique",
                "-");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().contains("4000 cells x 2300 genes from 2 files"), c.out());
        AnnData r = H5ad.read(out);
        assertArrayEquals(firstColumn("concat_outer_obs.csv.gz"), r.obs().index());
        assertArrayEquals(firstColumn("concat_outer_var.csv.gz"), r.var().index());
        assertArrayEquals(
                new String[] {"a", "b"},
                ((CategoricalColumn) r.obs().column("batch")).categories().strings());
    }

    @Test
    void manySmallFilesStreamIntoTheirDenseStacking() {
        int files = 24;
        List<String> args = new ArrayList<>(List.of("--chunk-nnz", "50", "concat"));
        List<CsrMatrix> xs = new ArrayList<>();
        List<String[]> genes = new ArrayList<>();
        TreeSet<String> union = new TreeSet<>();
        for (int f = 0; f < files; f++) {
            int n = 5 + f % 7;
            String[] g = new String[6 + f % 4];
            for (int j = 0; j < g.length; j++) {
                g[j] = "G" + (char) ('a' + (j * (f + 1)) % 13);
            }
            g = new java.util.LinkedHashSet<>(List.of(g)).toArray(String[]::new);
            CsrMatrix x = Matrices.random(n, g.length, 0.4, f);
            String[] cells = new String[n];
            for (int i = 0; i < n; i++) {
                cells[i] = "cell" + i;
            }
            Path p = tmp.resolve("in" + f + ".h5ad");
            H5ad.write(new AnnData(x, new Frame(cells), new Frame(g)), p).block();
            args.add(p.toString());
            xs.add(x);
            genes.add(g);
            union.addAll(List.of(g));
        }
        Path out = tmp.resolve("many.h5ad");
        args.addAll(List.of("-o", out.toString(), "--join", "outer", "--index-unique", "/"));
        Cli c = Cli.run(args.toArray(String[]::new));
        assertEquals(0, c.exitCode(), c.err());

        List<String> all = List.copyOf(union);
        AnnData r = H5ad.read(out);
        assertEquals(all, List.of(r.var().index()));
        List<float[]> expected = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            CsrMatrix x = xs.get(f);
            for (int i = 0; i < x.nRows(); i++) {
                float[] row = new float[all.size()];
                for (long k = x.indptr(i); k < x.indptr(i + 1); k++) {
                    row[all.indexOf(genes.get(f)[x.index(k)])] = x.value(k);
                }
                expected.add(row);
                assertEquals("cell" + i + "/" + f, r.obs().index()[expected.size() - 1]);
            }
        }
        assertEquals(expected.size(), r.nObs());
        for (RowBlock b : r.x().blocks().toIterable()) {
            for (int i = 0; i < b.nRows(); i++) {
                float[] row = new float[all.size()];
                for (int k = b.indptr()[i]; k < b.indptr()[i + 1]; k++) {
                    row[b.indices()[k]] = b.values()[k];
                }
                assertArrayEquals(expected.get((int) b.rowStart() + i), row, "row " + (b.rowStart() + i));
            }
        }
    }

    /** anndata (Debian's 0.8) reads the written file and finds what its own concat makes of the same files. */
    @Test
    void anndataReadsWhatItsConcatMakes() throws IOException {
        Python.assumeAnndata();
        String a = TestFixtures.path("synth-3k.int64.h5ad").toString();
        String b = TestFixtures.path("synth-3k-b.h5ad").toString();
        for (String join : List.of("inner", "outer")) {
            Path out = tmp.resolve(join + ".h5ad");
            Cli c = Cli.run(
                    "concat",
                    b,
                    a,
                    "-o",
                    out.toString(),
                    "--join",
                    join,
                    "--label",
                    "src",
                    "--keys",
                    "b,a",
                    "--index-unique",
                    "_",
                    "--compression",
                    "gzip");
            assertEquals(0, c.exitCode(), c.err());
            String script = String.join(
                    "\n",
                    "import sys, anndata as ad, numpy as np",
                    "mine = ad.read_h5ad(sys.argv[1])",
                    "ins = [ad.read_h5ad(p) for p in sys.argv[2:4]]",
                    "ref = ad.concat(ins, join=sys.argv[4], label='src', keys=['b', 'a'], index_unique='_')",
                    "assert list(mine.obs_names) == list(ref.obs_names)",
                    "assert list(mine.var_names) == list(ref.var_names), (mine.var_names[:5], ref.var_names[:5])",
                    "assert list(mine.obs.columns) == list(ref.obs.columns), (mine.obs.columns, ref.obs.columns)",
                    "for col in ref.obs.columns:",
                    "    assert list(mine.obs[col].astype(str)) == list(ref.obs[col].astype(str)), col",
                    "assert mine.X.dtype == ref.X.dtype, (mine.X.dtype, ref.X.dtype)",
                    "assert mine.shape == ref.shape and (mine.X != ref.X).nnz == 0",
                    "print('ok')");
            assertEquals("ok", Python.run(script, out.toString(), b, a, join).strip(), join);
        }
    }

    @Test
    void badInputsExitWithAMessage() {
        Path out = tmp.resolve("x.h5ad");
        String a = TestFixtures.path("synth-3k-b.h5ad").toString();
        Cli missing = Cli.run("concat", a, tmp.resolve("nope.h5ad").toString(), "-o", out.toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("nope.h5ad: no such file"), missing.err());
        assertEquals(2, Cli.run("concat", a, "-o", out.toString()).exitCode(), "one file is not a concatenation");
        Cli keys = Cli.run("concat", a, a, "-o", out.toString(), "--keys", "x");
        assertEquals(1, keys.exitCode());
        assertTrue(keys.err().contains("2 inputs but 1 keys"), keys.err());
    }
}
