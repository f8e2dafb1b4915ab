/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.PlanTarget;
import io.scflux.core.Settings;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The real anndata (Debian's python3-anndata) writes a random container in each X layout and compression at test
 * time and prints what it holds; scflux reads the file and must see the same. Skipped, saying why, without anndata.
 */
class AnndataWritesScfluxReadsTest {

    private static final String WRITE = String.join(
            "\n",
            "import sys, json, numpy as np, pandas as pd, scipy.sparse as sp, anndata as ad",
            "path, layout, compression = sys.argv[1], sys.argv[2], sys.argv[3]",
            "rng = np.random.default_rng(11)",
            "n, g = 257, 61",
            "X = sp.random(n, g, density=0.15, format='csr', random_state=5, dtype=np.float32)",
            "X.data = np.ceil(X.data * 30).astype(np.float32)",
            "X[7, :] = 0; X.eliminate_zeros()",
            "obs = pd.DataFrame({'kind': pd.Categorical(rng.choice(['α', 'β', 'γ'], n), categories=['γ', 'β', 'α', 'δ']),",
            "                    'score': rng.normal(size=n), 'flag': rng.random(n) > 0.5},",
            "                   index=[f'cell-{i}-é' for i in range(n)])",
            "var = pd.DataFrame(index=[f'gene{j}' for j in range(g)])",
            "M = {'csr': X, 'csc': sp.csc_matrix(X), 'dense': X.toarray()}[layout]",
            "a = ad.AnnData(X=M, obs=obs, var=var)",
            "a.layers['twice'] = sp.csr_matrix(X * 2)",
            "a.write_h5ad(path, compression=None if compression == 'none' else compression)",
            "print(json.dumps({'row_sums': np.asarray(X.sum(axis=1)).ravel().astype(float).tolist(),",
            "                  'row_nnz': np.diff(X.indptr).tolist(), 'obs_names': list(a.obs_names),",
            "                  'kind_categories': list(a.obs['kind'].cat.categories), 'kind': list(a.obs['kind'].astype(str)),",
            "                  'score': a.obs['score'].tolist(), 'flag': [bool(v) for v in a.obs['flag']]}))");

    @TempDir
    static Path dir;

    @BeforeAll
    static void needsAnndata() {
        PythonProbe.assumeModule("anndata");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"csr, none", "csr, gzip", "csc, none", "csc, gzip", "dense, none", "dense, lzf", "dense, gzip"})
    @SuppressWarnings("unchecked")
    void scfluxSeesWhatAnndataWrote(String layout, String compression) throws Exception {
        Path file = dir.resolve(layout + "-" + compression + ".h5ad");
        Map<String, Object> wrote = PythonProbe.json(WRITE, file, layout, compression);
        AnnData a = H5ad.read(file, CellRangerOptions.defaults(), Settings.DEFAULT.withCacheDir(dir.resolve("cache")));
        List<Object> names = (List<Object>) wrote.get("obs_names");
        assertEquals(names, List.of(a.obs().index()));
        assertEquals(
                wrote.get("kind_categories"),
                List.of(((io.scflux.core.anndata.CategoricalColumn) a.obs().column("kind"))
                        .categories()
                        .strings()));
        List<Object> kind = (List<Object>) wrote.get("kind");
        List<Object> score = (List<Object>) wrote.get("score");
        List<Object> flag = (List<Object>) wrote.get("flag");
        for (int i = 0; i < a.nObs(); i++) {
            assertEquals(kind.get(i), a.obs().column("kind").get(i));
            assertEquals(
                    (Double) score.get(i), ((Number) a.obs().column("score").get(i)).doubleValue());
            assertEquals(flag.get(i), a.obs().column("flag").get(i));
        }
        CsrMatrix x = Fixtures.collect(a.x(), new PlanTarget(300, 17), 2);
        CsrMatrix twice = Fixtures.collect(a.layers().get("twice"), PlanTarget.DEFAULT, 1);
        List<Object> sums = (List<Object>) wrote.get("row_sums");
        List<Object> nnz = (List<Object>) wrote.get("row_nnz");
        for (int r = 0; r < a.nObs(); r++) {
            double s = 0;
            double t = 0;
            for (long k = x.indptr(r); k < x.indptr(r + 1); k++) {
                s += x.value(k);
            }
            for (long k = twice.indptr(r); k < twice.indptr(r + 1); k++) {
                t += twice.value(k);
            }
            assertEquals((Double) sums.get(r), s, "row " + r);
            assertEquals(2 * (Double) sums.get(r), t, "layer row " + r);
            assertEquals(((Double) nnz.get(r)).longValue(), x.indptr(r + 1) - x.indptr(r), "row " + r);
        }
    }
}
