/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.scflux.core.DType;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.NullableColumn;
import io.scflux.core.anndata.Raw;
import io.scflux.core.anndata.RecordArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Round trips through the real anndata ({@code /usr/bin/python3}, Debian's anndata 0.8): every encoding the writer
 * produces is read back by {@code anndata.read_h5ad} and compared with the values the test put in.
 */
class H5adWriterInteropTest {

    /** Reads a file with anndata and prints what it sees, as plain JSON. */
    static final String READ_ANNDATA = """
            import sys, json, warnings
            warnings.simplefilter("ignore")
            from collections.abc import Mapping
            import anndata, numpy as np, pandas as pd, scipy.sparse as sp
            a = anndata.read_h5ad(sys.argv[1])
            def plain(v):
                if isinstance(v, Mapping):
                    return {k: plain(x) for k, x in v.items()}
                if sp.issparse(v):
                    return {"sparse": v.format, "dtype": str(v.dtype), "dense": v.toarray().tolist()}
                if isinstance(v, pd.DataFrame):
                    return frame(v)
                if isinstance(v, np.ndarray):
                    return {"dtype": str(v.dtype), "shape": list(v.shape), "value": v.tolist()}
                if isinstance(v, np.generic):
                    return {"scalar": type(v).__name__, "value": v.item()}
                return {"python": type(v).__name__, "value": v}
            def column(s):
                out = {"dtype": str(s.dtype), "values": [None if pd.isna(x) else (x.item() if hasattr(x, "item") else x) for x in s]}
                if str(s.dtype) == "category":
                    out["categories"] = s.cat.categories.tolist()
                    out["ordered"] = bool(s.cat.ordered)
                return out
            def frame(df):
                return {"index": df.index.tolist(), "index_name": df.index.name, "columns": df.columns.tolist(),
                        "data": {c: column(df[c]) for c in df.columns}}
            out = {"shape": list(a.shape), "X": plain(a.X), "obs": frame(a.obs), "var": frame(a.var),
                   "obsm": plain(dict(a.obsm)), "varm": plain(dict(a.varm)), "obsp": plain(dict(a.obsp)),
                   "varp": plain(dict(a.varp)), "layers": plain(dict(a.layers)), "uns": plain(dict(a.uns)),
                   "raw": None if a.raw is None else {"X": plain(a.raw.X), "var": frame(a.raw.var)}}
            print(json.dumps(out))
            """;

    /** Prints the HDF5 type of every dataset and attribute below the root, as h5py sees them. */
    static final String READ_H5PY = """
            import sys, json, h5py
            f = h5py.File(sys.argv[1], "r")
            out = {}
            def describe(name, o):
                d = {"attrs": {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in o.attrs.items()}}
                if isinstance(o, h5py.Dataset):
                    d["dtype"] = str(o.dtype) if h5py.check_string_dtype(o.dtype) is None else "str"
                    d["shape"] = list(o.shape)
                    d["chunks"] = o.chunks
                    d["maxshape"] = [-1 if m is None else m for m in o.maxshape]
                    d["compression"] = o.compression
                    d["compression_opts"] = o.compression_opts
                    v = o.asstr()[()] if d["dtype"] == "str" else o[()]
                    d["value"] = v.tolist() if hasattr(v, "tolist") else v
                out["/" + name] = d
            out["/"] = {"attrs": {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in f.attrs.items()}}
            f.visititems(describe)
            print(json.dumps(out, default=bytes.decode))  # the strings of a compound dataset
            """;

    @TempDir
    Path dir;

    private static final String[] CELLS = {"zelle-ä-0", "cell-1", "细胞-2", "cell-3", "cell-4", "cell-5"};
    private static final String[] GENES = {"MT-CO1", "Gène-β", "CD3E", "ACTB"};

    private static final double[] N_COUNTS = {3.5, 0, 13.5, 7, 15, 19.25};

    /** X, 6 x 4, with an empty row and exactly representable values. */
    private static final long[] X_INDPTR = {0, 2, 2, 5, 6, 8, 10};

    private static final int[] X_INDICES = {0, 3, 0, 1, 2, 3, 1, 2, 0, 3};
    private static final float[] X_VALUES = {1, 2.5f, 3, 4, 0.5f, 6, 7, 8, 9.25f, 10};

    static CsrMatrix matrix(int nCols, long[] indptr, int[] indices, float[] values) {
        return CsrMatrix.of(nCols, indptr, indices, values);
    }

    static double[][] dense(int rows, int cols, long[] indptr, int[] indices, float[] values) {
        double[][] d = new double[rows][cols];
        for (int r = 0; r < rows; r++) {
            for (long k = indptr[r]; k < indptr[r + 1]; k++) {
                d[r][indices[(int) k]] = values[(int) k];
            }
        }
        return d;
    }

    static AnnData everything() {
        Frame obs = new Frame(CELLS);
        obs.put("n_counts", ArrayColumn.of(N_COUNTS));
        obs.put("n_genes", ArrayColumn.of(new int[] {2, 0, 3, 1, 2, 2}));
        obs.put("größe", ArrayColumn.of(new float[] {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f}));
        obs.put("is_doublet", ArrayColumn.of(new boolean[] {true, false, false, true, false, false}));
        obs.put("label", ArrayColumn.of(new String[] {"naïve", "T cell", "日本", "", "b", "ü"}));
        obs.put("depth", new ArrayColumn(DenseArray.of(DType.UINT16, new short[] {1, 2, (short) 65535, 4, 5, 6}, 6)));
        obs.put(
                "cell_type",
                new CategoricalColumn(
                        DenseArray.of(new String[] {"T", "B", "unused", "NK-ß"}),
                        new int[] {1, 0, -1, 3, 0, 1},
                        false,
                        DType.INT8));
        obs.put(
                "grade",
                new CategoricalColumn(
                        DenseArray.of(new String[] {"low", "mid", "high"}),
                        new int[] {2, 0, 1, 1, -1, 0},
                        true,
                        DType.INT16));
        obs.put(
                "batch",
                new CategoricalColumn(
                        DenseArray.of(new long[] {10, 20, 30}), new int[] {0, 0, 1, 1, 0, 0}, false, DType.INT8));
        obs.put("n_int", new NullableColumn(DenseArray.of(new long[] {1, 0, 3, 4, 0, -6}), new boolean[] {
            false, true, false, false, true, false
        }));
        obs.put(
                "n_bool",
                new NullableColumn(
                        DenseArray.of(new boolean[] {true, false, false, true, false, true}),
                        new boolean[] {false, false, true, false, false, false}));
        obs.put("log1p_n_counts", ArrayColumn.computed(DType.FLOAT32, 6, i -> Math.log1p(N_COUNTS[i])));
        obs.put("pct_of_most", ArrayColumn.computed(DType.FLOAT64, 6, i -> N_COUNTS[i] / 19.25 * 100));

        Frame var = new Frame(GENES, "gene_symbols");
        var.put("gene_ids", ArrayColumn.of(new String[] {"ENSG1", "ENSG2", "ENSG3", "ENSG4"}));
        var.put("highly_variable", ArrayColumn.of(new boolean[] {true, false, true, false}));
        var.put("means", ArrayColumn.of(new float[] {0.25f, 0.5f, 0.75f, 1}));

        AnnData a = new AnnData(matrix(4, X_INDPTR, X_INDICES, X_VALUES), obs, var);
        float[] pca = new float[18];
        for (int i = 0; i < pca.length; i++) {
            pca[i] = i * 0.5f - 3;
        }
        a.putObsm("X_pca", DenseArray.of(DType.FLOAT32, pca, 6, 3));
        a.putObsm("X_umap", DenseArray.of(DType.FLOAT64, new double[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 6, 2));
        Frame meta = new Frame(CELLS);
        meta.put("score", ArrayColumn.of(new double[] {0.5, 1, 1.5, 2, 2.5, 3}));
        a.putObsm("meta", meta);
        a.putVarm("PCs", DenseArray.of(DType.FLOAT64, new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1}, 4, 3));
        a.putObsp(
                "distances",
                matrix(6, new long[] {0, 1, 2, 2, 2, 3, 4}, new int[] {1, 0, 5, 4}, new float[] {0.5f, 0.5f, 2, 2})
                        .withDtype(DType.FLOAT64));
        a.putLayer(
                "counts",
                matrix(4, X_INDPTR, X_INDICES, new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
                        .withDtype(DType.INT32));

        Map<String, Object> params = new LinkedHashMap<>();
        params.put("n_neighbors", 15);
        params.put("method", "umap");
        params.put("ratio", 0.5);
        params.put("use_rep", true);
        params.put("ids", new long[] {3, 1, 2});
        params.put("names", DenseArray.of(new String[] {"a", "ß"}));
        params.put("grid", DenseArray.of(DType.FLOAT64, new double[] {1, 2, 3, 4}, 2, 2));
        params.put("nothing", new LinkedHashMap<>());
        a.uns().put("neighbors", params);
        a.uns().put("title", "ünïcode ✓");
        a.uns().put("count", DenseArray.scalar(42L));
        a.uns().put("sparse", matrix(3, new long[] {0, 1, 3}, new int[] {2, 0, 1}, new float[] {1, 2, 3}));
        Map<String, DenseArray> markers = new LinkedHashMap<>();
        markers.put("names", DenseArray.of(new String[] {"CD3E", "Gène-β", ""}));
        markers.put("score", DenseArray.of(new float[] {2.5f, -0.25f, 0}));
        markers.put("p", DenseArray.of(new double[] {1e-300, 0.5, 1}));
        markers.put("hit", DenseArray.of(new boolean[] {true, false, true}));
        markers.put("n", DenseArray.of(new int[] {3, -1, 0}));
        a.uns().put("markers", RecordArray.of(markers));

        Frame rawVar = new Frame(new String[] {"MT-CO1", "Gène-β", "CD3E", "ACTB", "XIST"});
        rawVar.put("total", ArrayColumn.of(new double[] {10, 20, 30, 40, 50}));
        a.setRaw(new Raw(
                matrix(5, new long[] {0, 1, 1, 2, 3, 4, 5}, new int[] {4, 0, 1, 2, 3}, new float[] {1, 2, 3, 4, 5}),
                rawVar));
        return a;
    }

    @Test
    void anndataReadsEveryEncodingWithItsValuesTypesAndOrder() throws Exception {
        PythonProbe.assumeModule("anndata");
        Path file = dir.resolve("all.h5ad");
        H5ad.write(
                        everything(),
                        file,
                        WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(3)).withExecution(Execution.threads(3)))
                .block();

        Map<String, Object> seen = PythonProbe.json(READ_ANNDATA, file);
        assertEquals(List.of(6.0, 4.0), seen.get("shape"));
        Map<String, Object> x = map(seen, "X");
        assertEquals("csr", x.get("sparse"));
        assertEquals("float32", x.get("dtype"));
        assertEquals(rows(dense(6, 4, X_INDPTR, X_INDICES, X_VALUES)), x.get("dense"));

        Map<String, Object> obs = map(seen, "obs");
        assertEquals(Arrays.asList(CELLS), obs.get("index"));
        assertNull(obs.get("index_name"));
        assertEquals(
                List.of(
                        "n_counts",
                        "n_genes",
                        "größe",
                        "is_doublet",
                        "label",
                        "depth",
                        "cell_type",
                        "grade",
                        "batch",
                        "n_int",
                        "n_bool",
                        "log1p_n_counts",
                        "pct_of_most"),
                obs.get("columns"));
        assertColumn(obs, "n_counts", "float64", List.of(3.5, 0.0, 13.5, 7.0, 15.0, 19.25));
        assertColumn(obs, "n_genes", "int32", List.of(2.0, 0.0, 3.0, 1.0, 2.0, 2.0));
        assertColumn(obs, "größe", "float32", List.of(0.5, 1.5, 2.5, 3.5, 4.5, 5.5));
        assertColumn(obs, "is_doublet", "bool", List.of(true, false, false, true, false, false));
        assertColumn(obs, "label", "object", List.of("naïve", "T cell", "日本", "", "b", "ü"));
        assertColumn(obs, "depth", "uint16", List.of(1.0, 2.0, 65535.0, 4.0, 5.0, 6.0));
        assertColumn(obs, "cell_type", "category", Arrays.asList("B", "T", null, "NK-ß", "T", "B"));
        assertEquals(
                List.of("T", "B", "unused", "NK-ß"),
                map(map(obs, "data"), "cell_type").get("categories"));
        assertEquals(false, map(map(obs, "data"), "cell_type").get("ordered"));
        assertColumn(obs, "grade", "category", Arrays.asList("high", "low", "mid", "mid", null, "low"));
        assertEquals(
                List.of("low", "mid", "high"), map(map(obs, "data"), "grade").get("categories"));
        assertEquals(true, map(map(obs, "data"), "grade").get("ordered"));
        assertColumn(obs, "batch", "category", List.of(10.0, 10.0, 20.0, 20.0, 10.0, 10.0));
        assertEquals(List.of(10.0, 20.0, 30.0), map(map(obs, "data"), "batch").get("categories"));
        assertColumn(obs, "n_int", "Int64", Arrays.asList(1.0, null, 3.0, 4.0, null, -6.0));
        assertColumn(obs, "n_bool", "boolean", Arrays.asList(true, false, null, true, false, true));
        List<Double> log1p = new ArrayList<>();
        List<Double> pct = new ArrayList<>();
        for (double c : N_COUNTS) {
            log1p.add((double) (float) Math.log1p(c));
            pct.add(c / 19.25 * 100);
        }
        assertColumn(obs, "log1p_n_counts", "float32", log1p);
        assertColumn(obs, "pct_of_most", "float64", pct);

        Map<String, Object> var = map(seen, "var");
        assertEquals(Arrays.asList(GENES), var.get("index"));
        assertEquals("gene_symbols", var.get("index_name"));
        assertEquals(List.of("gene_ids", "highly_variable", "means"), var.get("columns"));
        assertColumn(var, "gene_ids", "object", List.of("ENSG1", "ENSG2", "ENSG3", "ENSG4"));
        assertColumn(var, "highly_variable", "bool", List.of(true, false, true, false));
        assertColumn(var, "means", "float32", List.of(0.25, 0.5, 0.75, 1.0));

        Map<String, Object> pca = map(map(seen, "obsm"), "X_pca");
        assertEquals("float32", pca.get("dtype"));
        assertEquals(
                List.of(
                        List.of(-3.0, -2.5, -2.0),
                        List.of(-1.5, -1.0, -0.5),
                        List.of(0.0, 0.5, 1.0),
                        List.of(1.5, 2.0, 2.5),
                        List.of(3.0, 3.5, 4.0),
                        List.of(4.5, 5.0, 5.5)),
                pca.get("value"));
        assertEquals("float64", map(map(seen, "obsm"), "X_umap").get("dtype"));
        assertEquals(
                List.of(
                        List.of(1.0, 2.0),
                        List.of(3.0, 4.0),
                        List.of(5.0, 6.0),
                        List.of(7.0, 8.0),
                        List.of(9.0, 10.0),
                        List.of(11.0, 12.0)),
                map(map(seen, "obsm"), "X_umap").get("value"));
        Map<String, Object> meta = map(map(seen, "obsm"), "meta");
        assertEquals(Arrays.asList(CELLS), meta.get("index"));
        assertColumn(meta, "score", "float64", List.of(0.5, 1.0, 1.5, 2.0, 2.5, 3.0));
        assertEquals(
                List.of(List.of(1.0, 0.0, 0.0), List.of(0.0, 1.0, 0.0), List.of(0.0, 0.0, 1.0), List.of(1.0, 1.0, 1.0)),
                map(map(seen, "varm"), "PCs").get("value"));

        Map<String, Object> dist = map(map(seen, "obsp"), "distances");
        assertEquals("csr", dist.get("sparse"));
        assertEquals("float64", dist.get("dtype"));
        assertEquals(
                rows(dense(6, 6, new long[] {0, 1, 2, 2, 2, 3, 4}, new int[] {1, 0, 5, 4}, new float[] {0.5f, 0.5f, 2, 2
                })),
                dist.get("dense"));

        Map<String, Object> counts = map(map(seen, "layers"), "counts");
        assertEquals("int32", counts.get("dtype"));
        assertEquals(
                rows(dense(6, 4, X_INDPTR, X_INDICES, new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})),
                counts.get("dense"));

        Map<String, Object> uns = map(seen, "uns");
        assertEquals(Map.of("python", "str", "value", "ünïcode ✓"), uns.get("title"));
        assertEquals(Map.of("scalar", "int64", "value", 42.0), uns.get("count"));
        Map<String, Object> neighbors = map(uns, "neighbors");
        assertEquals(Map.of("scalar", "int32", "value", 15.0), neighbors.get("n_neighbors"));
        assertEquals(Map.of("python", "str", "value", "umap"), neighbors.get("method"));
        assertEquals(Map.of("scalar", "float64", "value", 0.5), neighbors.get("ratio"));
        assertEquals(Map.of("scalar", "bool_", "value", true), neighbors.get("use_rep"));
        assertEquals(
                Map.of("dtype", "int64", "shape", List.of(3.0), "value", List.of(3.0, 1.0, 2.0)), neighbors.get("ids"));
        assertEquals(List.of("a", "ß"), map(neighbors, "names").get("value"));
        assertEquals(
                Map.of(
                        "dtype",
                        "float64",
                        "shape",
                        List.of(2.0, 2.0),
                        "value",
                        List.of(List.of(1.0, 2.0), List.of(3.0, 4.0))),
                neighbors.get("grid"));
        assertEquals(Map.of(), neighbors.get("nothing"));
        assertEquals(
                Map.of(
                        "sparse",
                        "csr",
                        "dtype",
                        "float32",
                        "dense",
                        List.of(List.of(0.0, 0.0, 1.0), List.of(2.0, 3.0, 0.0))),
                uns.get("sparse"));
        Map<String, Object> markers = map(uns, "markers");
        assertEquals(
                "[('names', 'O'), ('score', '<f4'), ('p', '<f8'), ('hit', '?'), ('n', '<i4')]",
                markers.get("dtype"),
                "a structured array, strings as objects (as scanpy's names)");
        assertEquals(
                List.of(
                        List.of("CD3E", 2.5, 1e-300, true, 3.0),
                        List.of("Gène-β", -0.25, 0.5, false, -1.0),
                        List.of("", 0.0, 1.0, true, 0.0)),
                markers.get("value"));

        Map<String, Object> raw = map(seen, "raw");
        assertEquals(
                rows(dense(6, 5, new long[] {0, 1, 1, 2, 3, 4, 5}, new int[] {4, 0, 1, 2, 3}, new float[] {1, 2, 3, 4, 5
                })),
                map(raw, "X").get("dense"));
        assertEquals(
                List.of("MT-CO1", "Gène-β", "CD3E", "ACTB", "XIST"),
                map(raw, "var").get("index"));
        assertColumn(map(raw, "var"), "total", "float64", List.of(10.0, 20.0, 30.0, 40.0, 50.0));
    }

    @Test
    void writesTheLayoutAnndataWrites() throws Exception {
        PythonProbe.assumeModule("h5py");
        Path file = dir.resolve("layout.h5ad");
        H5ad.write(everything(), file).block();
        Map<String, Object> h5 = PythonProbe.json(READ_H5PY, file);

        assertEquals(Map.of("encoding-type", "anndata", "encoding-version", "0.1.0"), attrs(h5, "/"));
        for (String g : List.of("/obsm", "/varm", "/obsp", "/varp", "/layers", "/uns", "/raw/varm")) {
            assertEquals(Map.of("encoding-type", "dict", "encoding-version", "0.1.0"), attrs(h5, g), g);
        }
        assertEquals(Map.of("encoding-type", "raw", "encoding-version", "0.1.0"), attrs(h5, "/raw"));
        assertEquals(
                Map.of("encoding-type", "csr_matrix", "encoding-version", "0.1.0", "shape", List.of(6.0, 4.0)),
                attrs(h5, "/X"));
        assertEquals("int32", map(h5, "/X/indptr").get("dtype"));
        assertEquals("int32", map(h5, "/X/indices").get("dtype"));
        assertEquals("float32", map(h5, "/X/data").get("dtype"));
        assertEquals(List.of(-1.0), map(h5, "/X/data").get("maxshape"));
        assertEquals(
                List.of(0.0, 2.0, 2.0, 5.0, 6.0, 8.0, 10.0),
                map(h5, "/X/indptr").get("value"));
        assertEquals(
                Map.of(
                        "encoding-type",
                        "dataframe",
                        "encoding-version",
                        "0.2.0",
                        "_index",
                        "_index",
                        "column-order",
                        List.of(
                                "n_counts",
                                "n_genes",
                                "größe",
                                "is_doublet",
                                "label",
                                "depth",
                                "cell_type",
                                "grade",
                                "batch",
                                "n_int",
                                "n_bool",
                                "log1p_n_counts",
                                "pct_of_most")),
                attrs(h5, "/obs"));
        assertEquals("gene_symbols", attrs(h5, "/var").get("_index"));
        assertEquals(
                Map.of("encoding-type", "string-array", "encoding-version", "0.2.0"), attrs(h5, "/var/gene_symbols"));
        assertEquals(
                Map.of("encoding-type", "categorical", "encoding-version", "0.2.0", "ordered", true),
                attrs(h5, "/obs/grade"));
        assertEquals("int16", map(h5, "/obs/grade/codes").get("dtype"));
        assertEquals("int8", map(h5, "/obs/cell_type/codes").get("dtype"));
        assertEquals("bool", map(h5, "/obs/is_doublet").get("dtype"));
        assertEquals(Map.of("encoding-type", "nullable-integer", "encoding-version", "0.1.0"), attrs(h5, "/obs/n_int"));
        assertEquals(
                Map.of("encoding-type", "nullable-boolean", "encoding-version", "0.1.0"), attrs(h5, "/obs/n_bool"));
        assertEquals(Map.of("encoding-type", "numeric-scalar", "encoding-version", "0.2.0"), attrs(h5, "/uns/count"));
        assertEquals(Map.of("encoding-type", "string", "encoding-version", "0.2.0"), attrs(h5, "/uns/title"));
        assertEquals(List.of(), map(h5, "/uns/title").get("shape"));
        assertEquals(Map.of("encoding-type", "rec-array", "encoding-version", "0.2.0"), attrs(h5, "/uns/markers"));
        assertEquals(
                "[('names', 'O'), ('score', '<f4'), ('p', '<f8'), ('hit', '?'), ('n', '<i4')]",
                map(h5, "/uns/markers").get("dtype"),
                "h5py's compound of vlen str and numbers, packed in order");
        assertNull(map(h5, "/obs/label").get("chunks"), "contiguous without compression, as h5py writes");
        assertEquals(Map.of("encoding-type", "array", "encoding-version", "0.2.0"), attrs(h5, "/obs/log1p_n_counts"));
        assertEquals("float32", map(h5, "/obs/log1p_n_counts").get("dtype"));
        assertNull(map(h5, "/obs/log1p_n_counts").get("chunks"), "a computed column is stored as a held one");
    }

    @Test
    void emptyColumnOrderIsTheEmptyFloatArrayAnndataWrites() throws Exception {
        PythonProbe.assumeModule("h5py");
        Path file = dir.resolve("bare.h5ad");
        H5ad.write(AnnData.of(matrix(2, new long[] {0, 1, 1}, new int[] {1}, new float[] {3})), file)
                .block();
        Map<String, Object> seen = PythonProbe.json("""
                import sys, json, h5py
                f = h5py.File(sys.argv[1], "r")
                a = f["var"].attrs["column-order"]
                print(json.dumps({"dtype": str(a.dtype), "shape": list(a.shape), "groups": sorted(f.keys())}))
                """, file);
        assertEquals("float64", seen.get("dtype"));
        assertEquals(List.of(0.0), seen.get("shape"));
        assertEquals(List.of("X", "layers", "obs", "obsm", "obsp", "uns", "var", "varm", "varp"), seen.get("groups"));
    }

    @Test
    void anndataReadsEmptyMatricesAndContainers() throws Exception {
        PythonProbe.assumeModule("anndata");
        Path noEntries = dir.resolve("no-entries.h5ad");
        H5ad.write(AnnData.of(matrix(2, new long[] {0, 0, 0, 0}, new int[0], new float[0])), noEntries)
                .block();
        Map<String, Object> seen = PythonProbe.json(READ_ANNDATA, noEntries);
        assertEquals(List.of(3.0, 2.0), seen.get("shape"));
        assertEquals(rows(new double[3][2]), map(seen, "X").get("dense"));
        assertEquals(List.of("0", "1", "2"), map(seen, "obs").get("index"));

        Path noCells = dir.resolve("no-cells.h5ad");
        Frame var = new Frame(new String[] {"g"});
        var.put("flag", ArrayColumn.of(new boolean[] {true}));
        H5ad.write(
                        new AnnData(matrix(1, new long[] {0}, new int[0], new float[0]), new Frame(new String[0]), var),
                        noCells)
                .block();
        seen = PythonProbe.json(READ_ANNDATA, noCells);
        assertEquals(List.of(0.0, 1.0), seen.get("shape"));
        assertEquals(List.of(), map(seen, "obs").get("index"));
        assertColumn(map(seen, "var"), "flag", "bool", List.of(true));
    }

    @Test
    void nullableStringColumnsFollowAnndata011() throws Exception {
        PythonProbe.assumeModule("h5py");
        Frame obs = new Frame(new String[] {"a", "b", "c"});
        obs.put(
                "note",
                new NullableColumn(DenseArray.of(new String[] {"x", null, "ζ"}), new boolean[] {false, true, false}));
        Path file = dir.resolve("nstr.h5ad");
        H5ad.write(new AnnData(null, obs, Frame.ofRange(2)), file).block();
        Map<String, Object> h5 = PythonProbe.json(READ_H5PY, file);
        assertEquals(
                Map.of("encoding-type", "nullable-string-array", "encoding-version", "0.1.0", "na-value", "NA"),
                attrs(h5, "/obs/note"));
        assertEquals("str", map(h5, "/obs/note/values").get("dtype"));
        assertEquals(List.of("x", "", "ζ"), map(h5, "/obs/note/values").get("value"));
        assertEquals(List.of(false, true, false), map(h5, "/obs/note/mask").get("value"));
        assertEquals(
                Map.of("encoding-type", "string-array", "encoding-version", "0.2.0"), attrs(h5, "/obs/note/values"));
        assertEquals(false, h5.containsKey("/X"), "no X when the container has none");
    }

    @Test
    void gzipCompressesEveryArrayAndKeepsTheValues() throws Exception {
        PythonProbe.assumeModule("anndata");
        Path file = dir.resolve("gz.h5ad");
        H5ad.write(everything(), file, WriteOptions.DEFAULT.withCompression(WriteOptions.Compression.GZIP))
                .block();
        Map<String, Object> h5 = PythonProbe.json(READ_H5PY, file);
        for (String ds : List.of(
                "/X/data",
                "/X/indices",
                "/X/indptr",
                "/obs/label",
                "/obs/cell_type/codes",
                "/obs/pct_of_most",
                "/obsm/X_pca",
                "/var/gene_symbols")) {
            assertEquals("gzip", map(h5, ds).get("compression"), ds);
            assertEquals(4.0, map(h5, ds).get("compression_opts"), ds);
        }
        assertNull(map(h5, "/uns/count").get("compression"), "scalars cannot be compressed");
        Map<String, Object> seen = PythonProbe.json(READ_ANNDATA, file);
        assertEquals(
                rows(dense(6, 4, X_INDPTR, X_INDICES, X_VALUES)), map(seen, "X").get("dense"));
        assertColumn(map(seen, "obs"), "label", "object", List.of("naïve", "T cell", "日本", "", "b", "ü"));
    }

    static void assertColumn(Map<String, Object> frame, String name, String dtype, List<?> values) {
        Map<String, Object> c = map(map(frame, "data"), name);
        assertEquals(dtype, c.get("dtype"), name);
        assertEquals(values, c.get("values"), name);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (!(v instanceof Map)) {
            throw new AssertionError("no object '" + key + "' in " + m.keySet());
        }
        return (Map<String, Object>) v;
    }

    static Map<String, Object> attrs(Map<String, Object> h5, String path) {
        return map(map(h5, path), "attrs");
    }

    static List<List<Double>> rows(double[][] d) {
        List<List<Double>> out = new ArrayList<>();
        for (double[] row : d) {
            List<Double> r = new ArrayList<>();
            for (double v : row) {
                r.add(v);
            }
            out.add(r);
        }
        return out;
    }
}
