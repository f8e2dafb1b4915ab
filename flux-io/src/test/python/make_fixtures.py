#!/usr/bin/python3
"""Makes the small .h5ad fixtures of scflux's reader tests and the expected values they are checked against.

Run with Debian's interpreter (anndata 0.8.0, h5py 3.7, pandas 1.5, numpy 1.24):

    /usr/bin/python3 flux-io/src/test/python/make_fixtures.py

It writes into flux-io/src/test/resources/fixtures/:

- rich.anndata08.h5ad: written by anndata 0.8's own write_h5ad (no compression, so every dataset is contiguous):
  300 cells x 200 genes, CSR counts, non-ASCII obs/var names and column names, every obs/var column encoding
  anndata 0.8 has (categorical ordered/unordered with unused categories, numeric categories, int16 codes, bool,
  int8..int64, uint8..uint64, float16/32/64, strings, nullable Int64 and boolean), obsm (dense, sparse, dataframe),
  varm, obsp, varp, layers (CSR and dense), uns (nested dicts, scalars, arrays, categorical, dataframe, sparse,
  rec-array) and raw with 250 genes.
- nullable-strings.h5ad: hand-written with h5py after anndata >= 0.11's spec, which anndata 0.8 cannot write:
  `nullable-string-array` columns (a group with `values`, a string-array, and `mask`, a bool array; attribute
  `na-value` "NA" or "NaN"; masked entries hold ""), also as a dataframe index and as categorical categories (what
  anndata writes when pandas infers strings); no X (anndata >= 0.8 writes none when X is None).
- legacy-07.h5ad: hand-written in anndata 0.7's layout: no root attributes, dataframes with encoding-version 0.1.0
  whose categorical columns are plain code datasets with the categories in a `__categories` subgroup (attribute
  `categories` an object reference, `ordered` on the categories), plain datasets without encoding attributes in
  obsm and uns, CSR X and raw.
- legacy-06.h5ad: hand-written in anndata 0.6's layout (X a plain float32 dataset, obs/var compound datasets with an
  `index` field, categories as uns/<column>_categories), which scflux rejects as an unsupported legacy layout.
- malformed/*.h5ad: a valid file written by anndata 0.8 (malformed/base.h5ad) and copies broken in one place each.
- *.expected.tsv: the values each file holds, computed here from the data written (or read back by anndata 0.8 for
  the shared synth-3k fixtures), never by scflux. One line per key: `key<TAB>value<TAB>value...`; missing values are
  `<NA>`, booleans `True`/`False`, floats Python's shortest repr (float32 widened to float64 exactly), NaN `NaN`.
"""
import os
import sys
import warnings

import anndata as ad
import h5py
import numpy as np
import pandas as pd
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "fixtures"))
NA = "<NA>"
STR = h5py.string_dtype(encoding="utf-8")


def fmt(v):
    """One value as the expected files write it."""
    if v is None or v is pd.NA:
        return NA
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, (np.floating, float)):
        f = float(v)
        return "NaN" if np.isnan(f) else repr(f)
    if isinstance(v, (np.integer, int)):
        return str(int(v))
    s = str(v)
    assert "\t" not in s and "\n" not in s, s
    return s


class Expected:
    """Collects key -> values lines and writes them as TSV."""

    def __init__(self):
        self.lines = []

    def put(self, key, *values):
        self.lines.append("\t".join([key] + [fmt(v) for v in values]))

    def put_list(self, key, values):
        self.put(key, *list(values))

    def write(self, name):
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write("\n".join(self.lines) + "\n")


def describe_frame(exp, prefix, df):
    """Index, index name, column order and every column's kind, dtype and values, from pandas."""
    exp.put(prefix + ".index_name", df.index.name)
    exp.put_list(prefix + ".index", df.index)
    exp.put_list(prefix + ".columns", df.columns)
    for name in df.columns:
        col = df[name]
        key = f"{prefix}.col.{name}"
        if isinstance(col.dtype, pd.CategoricalDtype):
            exp.put(key + ".kind", "categorical")
            exp.put_list(key + ".categories", col.cat.categories)
            exp.put_list(key + ".codes", col.cat.codes)
            exp.put(key + ".code_dtype", str(col.cat.codes.dtype))
            exp.put(key + ".ordered", bool(col.cat.ordered))
            exp.put_list(key + ".values", [None if pd.isna(v) else v for v in col])
        elif isinstance(col.dtype, (pd.Int64Dtype, pd.BooleanDtype, pd.StringDtype)) or \
                pd.api.types.is_extension_array_dtype(col.dtype):
            exp.put(key + ".kind", "nullable")
            exp.put(key + ".dtype", str(col.dtype))
            exp.put_list(key + ".mask", col.isna())
            exp.put_list(key + ".values", [None if pd.isna(v) else v for v in col])
        else:
            exp.put(key + ".kind", "array")
            exp.put(key + ".dtype", "str" if col.dtype == object else str(col.dtype))
            exp.put_list(key + ".values", col.to_numpy())


def describe_dense(exp, key, arr):
    arr = np.asarray(arr)
    exp.put(key + ".shape", *arr.shape)
    exp.put(key + ".dtype", "str" if arr.dtype.kind in "OU" else str(arr.dtype))
    exp.put_list(key + ".values", arr.reshape(-1))


def describe_sparse(exp, key, m):
    exp.put(key + ".shape", *m.shape)
    exp.put(key + ".format", m.format + "_matrix")
    exp.put(key + ".nnz", m.nnz)
    exp.put(key + ".dtype", str(m.dtype))


def counts(rng, n_obs, n_vars, density):
    m = sp.random(n_obs, n_vars, density=density, format="csr", dtype=np.float32, random_state=rng)
    m.data = rng.integers(1, 30, size=m.nnz).astype(np.float32)
    return m


def eighths(rng, shape, dtype):
    """Values k/8 with small k: exact in float16/32, so sums need no tolerance."""
    return (rng.integers(-64, 64, size=shape) / 8).astype(dtype)


# ----------------------------------------------------------------------------------------------------------------------
# rich.anndata08.h5ad
# ----------------------------------------------------------------------------------------------------------------------

def make_rich():
    rng = np.random.default_rng(20240611)
    n_obs, n_all, n_vars = 300, 250, 200
    prefixes = ["cell-", "zelle-ü", "细胞-", "célula-"]
    obs_names = [f"{prefixes[i % 4]}{i:03d}" for i in range(n_obs)]
    all_genes = [("Gén-α" if i % 7 == 0 else "GENE") + f"{i:03d}" for i in range(n_all)]

    counts_all = counts(rng, n_obs, n_all, 0.1)
    raw = ad.AnnData(X=counts_all, var=pd.DataFrame({"gene_ids": [f"ENSG{i:05d}" for i in range(n_all)]},
                                                    index=pd.Index(all_genes, name="gene_symbol")))
    raw.obs_names = obs_names
    keep = np.sort(rng.choice(n_all, size=n_vars, replace=False))

    x = counts_all[:, keep].tocsr()
    obs = pd.DataFrame(index=obs_names)
    cell_type = rng.choice(["T-cell", "B-cell", "NK", "Mono"], size=n_obs).astype(object)
    cell_type[[3, 17, 250]] = None
    obs["cell_type"] = pd.Categorical(cell_type, categories=["T-cell", "B-cell", "NK", "Mono"])
    obs["stage"] = pd.Categorical(rng.choice(["early", "mid", "late"], size=n_obs),
                                  categories=["early", "mid", "late", "unused_stage"], ordered=True)
    obs["is_doublet"] = rng.random(n_obs) < 0.1
    obs["n_genes"] = np.diff(x.indptr).astype(np.int32)
    score = rng.normal(size=n_obs)
    score[[5, 6]] = np.nan
    obs["score"] = score
    obs["barcode"] = [f"BC{i:04d}-ß" for i in range(n_obs)]
    nint = pd.array(rng.integers(-1000, 1000, size=n_obs), dtype="Int64")
    nint[[0, 10, 299]] = pd.NA
    obs["count_i64"] = nint
    nbool = pd.array(rng.random(n_obs) < 0.5, dtype="boolean")
    nbool[[1, 2, 150]] = pd.NA
    obs["flag"] = nbool
    obs["größe"] = eighths(rng, n_obs, np.float32)
    obs["u8"] = rng.integers(0, 256, size=n_obs).astype(np.uint8)
    obs["u16"] = rng.integers(0, 65536, size=n_obs).astype(np.uint16)
    obs["u32"] = rng.integers(0, 2**32, size=n_obs, dtype=np.uint64).astype(np.uint32)
    obs["u64"] = rng.integers(2**63, 2**64 - 1, size=n_obs, dtype=np.uint64)
    obs["i8"] = rng.integers(-128, 128, size=n_obs).astype(np.int8)
    obs["i16"] = rng.integers(-30000, 30000, size=n_obs).astype(np.int16)
    obs["i64"] = rng.integers(-2**62, 2**62, size=n_obs, dtype=np.int64)
    obs["f16"] = eighths(rng, n_obs, np.float16)
    obs["cluster_int"] = pd.Categorical(rng.choice([10, 20, 30], size=n_obs), categories=[30, 20, 10, 40])
    obs["many"] = pd.Categorical([f"c{i % 150:03d}" for i in range(n_obs)],
                                 categories=[f"c{i:03d}" for i in range(150)])

    var = raw.var.iloc[keep].copy()
    var["highly_variable"] = rng.random(n_vars) < 0.3
    var["means"] = np.asarray(x.mean(axis=0)).ravel().astype(np.float64)
    var["feature_types"] = pd.Categorical(["Gene Expression"] * n_vars)

    adata = ad.AnnData(X=x, obs=obs, var=var)
    adata.raw = raw
    adata.layers["counts"] = x.astype(np.int32)
    adata.layers["dense"] = eighths(rng, (n_obs, n_vars), np.float32)
    adata.obsm["X_pca"] = eighths(rng, (n_obs, 20), np.float32)
    adata.obsm["sparse_emb"] = counts(rng, n_obs, 50, 0.05)
    adata.obsm["meta"] = pd.DataFrame({"a": np.arange(n_obs, dtype=np.int64),
                                       "b": pd.Categorical(rng.choice(["x", "y"], size=n_obs))}, index=obs_names)
    adata.varm["PCs"] = eighths(rng, (n_vars, 20), np.float64)
    knn = counts(rng, n_obs, n_obs, 0.02)
    adata.obsp["distances"] = knn
    adata.varp["gene_graph"] = counts(rng, n_vars, n_vars, 0.01)
    adata.uns["title"] = "rich fixture ✓"
    adata.uns["n"] = 42
    adata.uns["pi"] = 3.25
    adata.uns["flag"] = True
    adata.uns["arr"] = np.arange(5, dtype=np.float64) / 4
    adata.uns["strs"] = np.array(["a", "ß", "γ"], dtype=object)
    adata.uns["mat"] = np.arange(12, dtype=np.int32).reshape(3, 4)
    adata.uns["cube"] = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    adata.uns["neighbors"] = {"params": {"n_neighbors": 15, "method": "umap", "metric": "euclidean"},
                              "distances_key": "distances"}
    adata.uns["empty"] = {}
    adata.uns["cat"] = pd.Categorical(["lo", "hi", "lo"], categories=["lo", "hi"])
    adata.uns["table"] = pd.DataFrame({"v": [1.5, 2.5]}, index=["r1", "r2"])
    adata.uns["sparse"] = sp.csr_matrix(np.array([[0, 1], [2, 0]], dtype=np.float32))
    adata.uns["rank"] = np.array([("g1", 1.5), ("g2", -0.5)], dtype=[("names", "U10"), ("scores", "<f8")])
    path = os.path.join(OUT, "rich.anndata08.h5ad")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        adata.write_h5ad(path)

    exp = Expected()
    exp.put("shape", n_obs, n_vars)
    describe_sparse(exp, "X", x)
    describe_frame(exp, "obs", adata.obs)
    describe_frame(exp, "var", adata.var)
    describe_frame(exp, "raw.var", adata.raw.var)
    describe_sparse(exp, "raw.X", counts_all)
    describe_sparse(exp, "layers.counts", adata.layers["counts"])
    exp.put("layers.dense.shape", n_obs, n_vars)
    exp.put_list("layers", adata.layers.keys())
    exp.put_list("obsm", adata.obsm.keys())
    exp.put_list("varm", adata.varm.keys())
    exp.put_list("obsp", adata.obsp.keys())
    exp.put_list("varp", adata.varp.keys())
    for key in ("X_pca",):
        a = adata.obsm[key]
        exp.put(f"obsm.{key}.shape", *a.shape)
        exp.put(f"obsm.{key}.dtype", str(a.dtype))
        exp.put(f"obsm.{key}.sum", float(a.astype(np.float64).sum()))
        exp.put_list(f"obsm.{key}.row0", a[0])
    describe_sparse(exp, "obsm.sparse_emb", adata.obsm["sparse_emb"])
    describe_frame(exp, "obsm.meta", adata.obsm["meta"])
    a = adata.varm["PCs"]
    exp.put("varm.PCs.shape", *a.shape)
    exp.put("varm.PCs.dtype", str(a.dtype))
    exp.put("varm.PCs.sum", float(a.sum()))
    exp.put_list("varm.PCs.row0", a[0])
    describe_sparse(exp, "obsp.distances", knn)
    describe_sparse(exp, "varp.gene_graph", adata.varp["gene_graph"])
    for key in ("title", "n", "pi", "flag"):
        describe_dense(exp, "uns." + key, np.array(adata.uns[key]))
    for key in ("arr", "strs", "mat", "cube"):
        describe_dense(exp, "uns." + key, adata.uns[key])
    describe_dense(exp, "uns.neighbors.params.n_neighbors", np.array(15))
    describe_dense(exp, "uns.neighbors.params.method", np.array("umap"))
    describe_dense(exp, "uns.neighbors.params.metric", np.array("euclidean"))
    describe_dense(exp, "uns.neighbors.distances_key", np.array("distances"))
    exp.put_list("uns.keys", sorted(adata.uns.keys()))
    exp.put_list("uns.cat.categories", adata.uns["cat"].categories)
    exp.put_list("uns.cat.codes", adata.uns["cat"].codes)
    describe_frame(exp, "uns.table", adata.uns["table"])
    describe_sparse(exp, "uns.sparse", adata.uns["sparse"])
    exp.put_list("uns.rank.fields", adata.uns["rank"].dtype.names)
    exp.put_list("uns.rank.names", adata.uns["rank"]["names"])
    exp.put_list("uns.rank.scores", adata.uns["rank"]["scores"])
    exp.write("rich.anndata08.expected.tsv")

    back = ad.read_h5ad(path)  # anndata 0.8 reads its own file back: the expected values are what it sees
    assert back.obs.equals(adata.obs) and back.var.equals(adata.var), "anndata 0.8 does not read back the same obs"
    assert list(back.obs.columns) == list(adata.obs.columns)


# ----------------------------------------------------------------------------------------------------------------------
# nullable-strings.h5ad (anndata >= 0.11 encodings, hand-written)
# ----------------------------------------------------------------------------------------------------------------------

def enc(node, encoding_type, version):
    node.attrs["encoding-type"] = encoding_type
    node.attrs["encoding-version"] = version
    return node


def strings(group, name, values):
    return enc(group.create_dataset(name, data=np.array(values, dtype=object), dtype=STR), "string-array", "0.2.0")


def array(group, name, values):
    return enc(group.create_dataset(name, data=values), "array", "0.2.0")


def nullable_strings(group, name, values, na_value):
    """anndata >= 0.11's nullable-string-array: values with "" where missing, mask true where missing."""
    g = enc(group.create_group(name), "nullable-string-array", "0.1.0")
    g.attrs["na-value"] = na_value
    strings(g, "values", ["" if v is None else v for v in values])
    array(g, "mask", np.array([v is None for v in values]))
    return g


def dataframe(group, name, index_key, columns):
    g = enc(group.create_group(name), "dataframe", "0.2.0")
    g.attrs["_index"] = index_key
    g.attrs["column-order"] = np.array(columns, dtype=object) if columns else np.array([], dtype=np.float64)
    return g


def make_nullable_strings():
    obs_names = ["o-α", "o-β", "o-γ", "o-δ", "o-ε"]
    donor = ["Ana", None, "Bö", "", None]
    comment = [None, "ok", "fine ✓", None, "x"]
    kind_cats = ["cat-ä", "cat-b"]
    kind_codes = [0, 1, -1, 1, 0]
    var_names = ["v1", "v2", "v3"]
    with h5py.File(os.path.join(OUT, "nullable-strings.h5ad"), "w") as f:
        enc(f, "anndata", "0.1.0")
        obs = dataframe(f, "obs", "_index", ["donor", "comment", "kind"])
        strings(obs, "_index", obs_names)
        nullable_strings(obs, "donor", donor, "NA")
        nullable_strings(obs, "comment", comment, "NaN")
        kind = enc(obs.create_group("kind"), "categorical", "0.2.0")
        kind.attrs["ordered"] = False
        array(kind, "codes", np.array(kind_codes, dtype=np.int8))
        nullable_strings(kind, "categories", kind_cats, "NaN")
        var = dataframe(f, "var", "gene", [])
        nullable_strings(var, "gene", var_names, "NaN")
        for m in ("layers", "obsm", "varm", "obsp", "varp", "uns"):
            enc(f.create_group(m), "dict", "0.1.0")
    exp = Expected()
    exp.put("shape", len(obs_names), len(var_names))
    exp.put_list("obs.index", obs_names)
    exp.put_list("obs.columns", ["donor", "comment", "kind"])
    exp.put_list("obs.col.donor.values", donor)
    exp.put_list("obs.col.donor.mask", [v is None for v in donor])
    exp.put_list("obs.col.comment.values", comment)
    exp.put_list("obs.col.comment.mask", [v is None for v in comment])
    exp.put_list("obs.col.kind.categories", kind_cats)
    exp.put_list("obs.col.kind.codes", kind_codes)
    exp.put("var.index_name", "gene")
    exp.put_list("var.index", var_names)
    exp.write("nullable-strings.expected.tsv")


# ----------------------------------------------------------------------------------------------------------------------
# legacy layouts
# ----------------------------------------------------------------------------------------------------------------------

def plain_strings(group, name, values):
    return group.create_dataset(name, data=np.array(values, dtype=object), dtype=STR)


def csr_07(group, name, m):
    g = enc(group.create_group(name), m.format + "_matrix", "0.1.0")
    g.attrs["shape"] = np.array(m.shape)
    g.create_dataset("data", data=m.data)
    g.create_dataset("indices", data=m.indices)
    g.create_dataset("indptr", data=m.indptr)
    return g


def frame_07(parent, name, index_key, index, columns):
    """anndata 0.7's write_dataframe: encoding-version 0.1.0, columns as plain datasets, categorical codes as a
    plain dataset whose attribute `categories` references `__categories/<name>`, which carries `ordered`."""
    g = enc(parent.create_group(name), "dataframe", "0.1.0")
    g.attrs["_index"] = index_key
    g.attrs["column-order"] = np.array(list(columns), dtype=object) if columns else np.array([], dtype=np.float64)
    plain_strings(g, index_key, index)
    for col, value in columns.items():
        if isinstance(value, pd.Categorical):
            cats = g.require_group("__categories")
            cd = plain_strings(cats, col, list(value.categories))
            cd.attrs["ordered"] = bool(value.ordered)
            codes = g.create_dataset(col, data=value.codes)
            codes.attrs["categories"] = cd.ref
        elif isinstance(value, np.ndarray) and value.dtype == object:
            plain_strings(g, col, list(value))
        else:
            g.create_dataset(col, data=value)
    return g


def make_legacy_07():
    rng = np.random.default_rng(7)
    n_obs, n_vars = 20, 10
    obs_names = [f"c{i:02d}" for i in range(n_obs)]
    var_names = [f"g{i:02d}" for i in range(n_vars)]
    cell_type = pd.Categorical(rng.choice(["b", "a", "c"], size=n_obs), categories=["b", "a", "c", "unused"])
    stage = pd.Categorical(rng.choice(["lo", "hi"], size=n_obs), categories=["lo", "hi"], ordered=True)
    n_counts = eighths(rng, n_obs, np.float32)
    name = np.array([f"name-{i}" for i in range(n_obs)], dtype=object)
    x = counts(rng, n_obs, n_vars, 0.3)
    raw_x = counts(rng, n_obs, n_vars + 2, 0.3)
    with h5py.File(os.path.join(OUT, "legacy-07.h5ad"), "w") as f:
        csr_07(f, "X", x)
        frame_07(f, "obs", "_index", obs_names,
                 {"cell_type": cell_type, "n_counts": n_counts, "name": name, "stage": stage})
        frame_07(f, "var", "gene_name", var_names, {"gene_ids": np.array([f"E{i}" for i in range(n_vars)],
                                                                          dtype=object)})
        obsm = f.create_group("obsm")
        obsm.create_dataset("X_pca", data=eighths(rng, (n_obs, 3), np.float32))
        layers = f.create_group("layers")
        csr_07(layers, "counts", x)
        uns = f.create_group("uns")
        uns.create_dataset("title", data="legacy", dtype=STR)
        uns.create_dataset("n", data=np.int64(3))
        sub = uns.create_group("sub")
        sub.create_dataset("arr", data=np.array([1.0, 2.0, 4.0]))
        raw = f.create_group("raw")
        csr_07(raw, "X", raw_x)
        frame_07(raw, "var", "_index", var_names + ["gx1", "gx2"], {})
    exp = Expected()
    exp.put("shape", n_obs, n_vars)
    exp.put_list("obs.index", obs_names)
    exp.put_list("obs.columns", ["cell_type", "n_counts", "name", "stage"])
    exp.put_list("obs.col.cell_type.categories", cell_type.categories)
    exp.put_list("obs.col.cell_type.codes", cell_type.codes)
    exp.put("obs.col.cell_type.ordered", False)
    exp.put_list("obs.col.stage.categories", stage.categories)
    exp.put_list("obs.col.stage.codes", stage.codes)
    exp.put("obs.col.stage.ordered", True)
    exp.put_list("obs.col.n_counts.values", n_counts)
    exp.put_list("obs.col.name.values", name)
    exp.put("var.index_name", "gene_name")
    exp.put_list("var.index", var_names)
    exp.put_list("raw.var.index", var_names + ["gx1", "gx2"])
    describe_sparse(exp, "X", x)
    describe_sparse(exp, "raw.X", raw_x)
    exp.write("legacy-07.expected.tsv")


def make_legacy_06():
    n_obs, n_vars = 6, 4
    with h5py.File(os.path.join(OUT, "legacy-06.h5ad"), "w") as f:
        f.create_dataset("X", data=np.arange(n_obs * n_vars, dtype=np.float32).reshape(n_obs, n_vars))
        obs = np.array([(f"c{i}".encode(), i % 2) for i in range(n_obs)], dtype=[("index", "S2"), ("louvain", "i1")])
        f.create_dataset("obs", data=obs)
        var = np.array([(f"g{i}".encode(), f"E{i}".encode()) for i in range(n_vars)],
                       dtype=[("index", "S2"), ("gene_ids", "S2")])
        f.create_dataset("var", data=var)
        f.create_group("uns").create_dataset("louvain_categories", data=np.array([b"0", b"1"]))


# ----------------------------------------------------------------------------------------------------------------------
# malformed files: anndata 0.8 writes a valid base, h5py breaks one thing in each copy
# ----------------------------------------------------------------------------------------------------------------------

def make_malformed():
    d = os.path.join(OUT, "malformed")
    os.makedirs(d, exist_ok=True)
    obs = pd.DataFrame({"cell_type": pd.Categorical(["a", "b", "c", "a", "b", "c", "a", "b", "c", "a"]),
                        "n_genes": np.arange(10, dtype=np.int32)}, index=[f"c{i}" for i in range(10)])
    var = pd.DataFrame(index=[f"g{i}" for i in range(4)])
    base = os.path.join(d, "base.h5ad")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ad.AnnData(obs=obs, var=var).write_h5ad(base)
    data = open(base, "rb").read()

    def broken(name, edit):
        path = os.path.join(d, name + ".h5ad")
        with open(path, "wb") as out:
            out.write(data)
        with h5py.File(path, "r+") as f:
            edit(f)

    def missing_encoding(f):
        del f["obs/n_genes"].attrs["encoding-type"]
        del f["obs/n_genes"].attrs["encoding-version"]

    def codes_out_of_range(f):
        f["obs/cell_type/codes"][5] = 7

    def column_length(f):
        del f["obs/n_genes"]
        array(f["obs"], "n_genes", np.arange(9, dtype=np.int32))

    def no_index(f):
        del f["obs/_index"]

    def codes_dtype(f):
        del f["obs/cell_type/codes"]
        array(f["obs/cell_type"], "codes", np.zeros(10, dtype=np.float64))

    def unknown_encoding(f):
        f["obs/n_genes"].attrs["encoding-type"] = "fancy-array"

    def missing_column(f):
        f["obs"].attrs["column-order"] = np.array(["cell_type", "n_genes", "ghost"], dtype=object)

    def obsm_rows(f):
        array(f["obsm"], "X_pca", np.zeros((9, 2), dtype=np.float32))

    for name, edit in [("missing-encoding", missing_encoding), ("codes-out-of-range", codes_out_of_range),
                       ("column-length", column_length), ("no-index", no_index), ("codes-dtype", codes_dtype),
                       ("unknown-encoding", unknown_encoding), ("missing-column", missing_column),
                       ("obsm-rows", obsm_rows)]:
        broken(name, edit)


# ----------------------------------------------------------------------------------------------------------------------
# expected values of the shared synth-3k fixtures, read by anndata 0.8
# ----------------------------------------------------------------------------------------------------------------------

def describe_shared(name):
    a = ad.read_h5ad(os.path.join(OUT, name + ".h5ad"))
    exp = Expected()
    exp.put("shape", *a.shape)
    for axis, df in (("obs", a.obs), ("var", a.var)):
        exp.put(axis + ".index_name", df.index.name)
        exp.put_list(axis + ".index.head", df.index[:5])
        exp.put_list(axis + ".index.tail", df.index[-5:])
        exp.put_list(axis + ".columns", df.columns)
        for col in df.columns:
            c = df[col]
            key = f"{axis}.col.{col}"
            if isinstance(c.dtype, pd.CategoricalDtype):
                exp.put(key + ".kind", "categorical")
                exp.put_list(key + ".categories", c.cat.categories)
                exp.put_list(key + ".codes.head", c.cat.codes[:20])
                exp.put_list(key + ".code_counts", np.bincount(c.cat.codes, minlength=len(c.cat.categories)))
            else:
                exp.put(key + ".kind", "array")
                exp.put_list(key + ".head", c[:5])
                exp.put_list(key + ".tail", c[-5:])
    exp.write(name + ".expected.tsv")


def main():
    if ad.__version__ != "0.8.0":
        sys.exit(f"run with Debian's /usr/bin/python3 (anndata 0.8.0), not anndata {ad.__version__}")
    make_rich()
    make_nullable_strings()
    make_legacy_07()
    make_legacy_06()
    make_malformed()
    for name in ("synth-3k.csc-gzip", "synth-3k.int64", "synth-3k-b"):
        describe_shared(name)


if __name__ == "__main__":
    main()
