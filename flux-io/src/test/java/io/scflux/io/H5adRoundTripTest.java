/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** scflux reads and writes: a file written by anndata survives a round trip, and scflux reads what it wrote. */
class H5adRoundTripTest {

    /**
     * Reads two files with anndata and prints the paths where what anndata sees differs (values, dtypes, categories
     * and their order, column order, index), then checks the two conversions scflux's container makes on the way:
     * float16 as float32, values unchanged (a rec-array stays one).
     */
    private static final String COMPARE = """
            import sys, json, warnings
            warnings.simplefilter("ignore")
            from collections.abc import Mapping
            import anndata, numpy as np, pandas as pd, scipy.sparse as sp
            def plain(v):
                if isinstance(v, Mapping):
                    return {k: plain(x) for k, x in v.items()}
                if sp.issparse(v):
                    return ("sparse", v.format, str(v.dtype), v.toarray().tolist())
                if isinstance(v, pd.DataFrame):
                    return frame(v)
                if isinstance(v, pd.Categorical):
                    return ("categorical", list(v.categories), v.codes.tolist(), v.ordered, str(v.codes.dtype))
                if isinstance(v, np.ndarray):
                    return ("array", str(v.dtype), v.shape, v.tolist())
                if isinstance(v, np.generic):
                    return ("scalar", type(v).__name__, v.item())
                return (type(v).__name__, v)
            def column(s):
                out = (str(s.dtype), [None if pd.isna(x) else x for x in s])
                if str(s.dtype) == "category":
                    out += (s.cat.categories.tolist(), s.cat.ordered, str(s.cat.codes.dtype))
                return out
            def frame(df):
                return {"index": df.index.tolist(), "index_name": df.index.name, "columns": df.columns.tolist(),
                        "data": {c: column(df[c]) for c in df.columns}}
            def summary(a):
                return {"shape": a.shape, "X": plain(a.X), "obs": frame(a.obs), "var": frame(a.var),
                        "obsm": plain(dict(a.obsm)), "varm": plain(dict(a.varm)), "obsp": plain(dict(a.obsp)),
                        "varp": plain(dict(a.varp)), "layers": plain(dict(a.layers)), "uns": plain(dict(a.uns)),
                        "raw": None if a.raw is None else {"X": plain(a.raw.X), "var": frame(a.raw.var),
                                                           "varm": plain(dict(a.raw.varm))}}
            differences = []
            def diff(x, y, path):
                if isinstance(x, dict) and isinstance(y, dict):
                    for k in sorted(set(x) | set(y), key=str):
                        if k in x and k in y:
                            diff(x[k], y[k], path + "/" + str(k))
                        else:
                            differences.append(path + "/" + str(k))
                elif repr(x) != repr(y):
                    differences.append(path)
            a, b = anndata.read_h5ad(sys.argv[1]), anndata.read_h5ad(sys.argv[2])
            diff(summary(a), summary(b), "")
            converted = {}
            if "f16" in a.obs:
                converted["f16"] = str(b.obs["f16"].dtype) == "float32" and np.array_equal(
                    a.obs["f16"].to_numpy().astype(np.float32), b.obs["f16"].to_numpy())
            print(json.dumps({"differences": differences, "converted": converted}))
            """;

    @TempDir
    Path dir;

    @Test
    void anndataSeesTheSameFileAfterScfluxReadsAndRewritesIt() throws Exception {
        PythonProbe.assumeModule("anndata");
        Path original = Fixtures.path("rich.anndata08.h5ad");
        Path rewritten = dir.resolve("rich.h5ad");
        H5ad.write(H5ad.read(original), rewritten).block();
        assertOnlyTheContainersConversions(PythonProbe.json(COMPARE, original, rewritten));
    }

    @Test
    void aFileIsRewrittenInPlaceWhileItsMatricesAreReadFromIt() throws Exception {
        PythonProbe.assumeModule("anndata");
        Path original = Fixtures.path("rich.anndata08.h5ad");
        Path file = dir.resolve("in-place.h5ad");
        Files.copy(original, file);
        H5ad.writeInPlace(
                        H5ad.read(file),
                        file,
                        WriteOptions.DEFAULT
                                .withCompression(WriteOptions.Compression.GZIP)
                                .withPlan(PlanTarget.ofChunkNnz(500)))
                .block();
        assertOnlyTheContainersConversions(PythonProbe.json(COMPARE, original, file));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(file), s.toList(), "no temporary file is left");
        }
    }

    private static void assertOnlyTheContainersConversions(Map<String, Object> seen) {
        assertEquals(List.of("/obs/data/f16"), seen.get("differences"));
        assertEquals(Map.of("f16", true), seen.get("converted"));
    }

    @Test
    void scfluxReadsBackWhatItWrote() {
        AnnData in = H5adWriterInteropTest.everything();
        Path file = dir.resolve("all.h5ad");
        H5ad.write(in, file).block();
        AnnData out = H5ad.read(file);

        assertMatrix(in.x(), out.x());
        assertFrame(in.obs(), out.obs());
        assertFrame(in.var(), out.var());
        assertEquals(in.obsm().keySet(), out.obsm().keySet());
        assertEquals(in.obsm().get("X_pca"), out.obsm().get("X_pca"));
        assertEquals(in.obsm().get("X_umap"), out.obsm().get("X_umap"));
        assertFrame((Frame) in.obsm().get("meta"), (Frame) out.obsm().get("meta"));
        assertEquals(in.varm(), out.varm());
        assertMatrix((BlockSource) in.obsp().get("distances"), (BlockSource)
                out.obsp().get("distances"));
        assertMatrix(in.layers().get("counts"), out.layers().get("counts"));

        assertEquals(DenseArray.scalar("ünïcode ✓"), out.uns().get("title"));
        assertEquals(DenseArray.scalar(42L), out.uns().get("count"));
        assertMatrix(
                (BlockSource) in.uns().get("sparse"), (BlockSource) out.uns().get("sparse"));
        assertEquals(in.uns().get("markers"), out.uns().get("markers"), "a structured array, field by field");
        @SuppressWarnings("unchecked")
        Map<String, Object> neighbors = (Map<String, Object>) out.uns().get("neighbors");
        assertEquals(
                Map.of(
                        "n_neighbors",
                        DenseArray.scalar(15),
                        "method",
                        DenseArray.scalar("umap"),
                        "ratio",
                        DenseArray.scalar(0.5),
                        "use_rep",
                        DenseArray.scalar(true),
                        "ids",
                        DenseArray.of(new long[] {3, 1, 2}),
                        "names",
                        DenseArray.of(new String[] {"a", "ß"}),
                        "grid",
                        DenseArray.of(DType.FLOAT64, new double[] {1, 2, 3, 4}, 2, 2),
                        "nothing",
                        Map.of()),
                neighbors);

        assertMatrix(in.raw().x(), out.raw().x());
        assertFrame(in.raw().var(), out.raw().var());
        assertEquals(Map.of(), out.raw().varm());
    }

    private static void assertMatrix(BlockSource expected, BlockSource actual) {
        assertInstanceOf(FileMatrix.class, actual);
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        Fixtures.assertSameMatrix(
                Fixtures.collect(expected, PlanTarget.DEFAULT, 1), Fixtures.collect(actual, PlanTarget.DEFAULT, 1));
    }

    private static void assertFrame(Frame expected, Frame actual) {
        assertArrayEquals(expected.index(), actual.index(), "index");
        assertEquals(expected.indexName(), actual.indexName(), "index name");
        assertEquals(
                List.copyOf(expected.columns().keySet()),
                List.copyOf(actual.columns().keySet()),
                "column order");
        assertEquals(expected.columns(), actual.columns());
    }
}
