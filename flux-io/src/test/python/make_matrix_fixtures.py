"""Small X-layout fixtures for the block reader tests (run with Debian's python3: anndata 0.8, h5py 3.7).

Every file holds the first 100 cells of ../../../../../shared/fixtures/synth-3k.h5ad (2000 genes) in another
layout, written by real anndata where anndata writes that layout, and by h5py where only a broken or unusual
file shows what the reader must do. `x-variants.json` records, computed here with numpy from the source data,
the numbers the Java tests compare against.

    cd flux-io/src/test/python && /usr/bin/python3 make_matrix_fixtures.py ../../../../../shared/fixtures/synth-3k.h5ad
"""
import json
import sys

import anndata as ad
import h5py
import numpy as np
import scipy.sparse as sp

src = sys.argv[1] if len(sys.argv) > 1 else "../../../../../shared/fixtures/synth-3k.h5ad"
out = "../resources/fixtures/"
full = ad.read_h5ad(src)
X = full.X[:100]
X = sp.csr_matrix((X.data, X.indices.astype(np.int32), X.indptr.astype(np.int32)), shape=X.shape)
X.sort_indices()
small = ad.AnnData(X=X, obs=full.obs.iloc[:100].copy(), var=full.var.copy())
small.obs["batch"] = small.obs["batch"].astype("category")

# anndata 0.8 writes sparse X chunked without compression, and dense X chunked with lzf.
small.write_h5ad(out + "x-csr-anndata08.h5ad")
dense = small.copy()
dense.X = X.toarray()
dense.write_h5ad(out + "x-dense-lzf.h5ad", compression="lzf")

# Dense float64, contiguous (h5py), first 20 cells, with a NaN and a negative value: kept as entries.
d64 = X[:20].toarray().astype(np.float64)
d64[0, 5] = np.nan
d64[1, 7] = -2.5
with h5py.File(out + "x-dense-f64-contiguous.h5ad", "w") as f:
    ds = f.create_dataset("X", data=d64)
    ds.attrs["encoding-type"] = "array"
    ds.attrs["encoding-version"] = "0.2.0"

def csr_group(f, name, m, indptr_dtype=np.int32, indices_dtype=np.int32, data=None, shape=None, **kw):
    g = f.create_group(name)
    g.attrs["encoding-type"] = "csr_matrix"
    g.attrs["encoding-version"] = "0.1.0"
    g.attrs["shape"] = np.array(shape if shape is not None else m.shape, dtype=np.int64)
    g.create_dataset("data", data=m.data if data is None else data, **kw)
    g.create_dataset("indices", data=m.indices.astype(indices_dtype), **kw)
    g.create_dataset("indptr", data=m.indptr.astype(indptr_dtype))
    return g

# CSR stored contiguous (no chunks), as older anndata and h5py defaults write it.
with h5py.File(out + "x-csr-contiguous.h5ad", "w") as f:
    csr_group(f, "X", X)

# Empty rows, uint16 counts, small chunks so that blocks cut chunks: rows 3, 50..59 and the last one emptied.
E = X.tolil()
for r in [3] + list(range(50, 60)) + [99]:
    E[r, :] = 0
E = sp.csr_matrix(E)
E.eliminate_zeros()
with h5py.File(out + "x-empty-rows-u16.h5ad", "w") as f:
    csr_group(f, "X", E, data=E.data.astype(np.uint16), chunks=(1000,))

# Degenerate shapes: no entries at all, and no rows.
with h5py.File(out + "x-no-entries.h5ad", "w") as f:
    csr_group(f, "X", sp.csr_matrix((40, 30), dtype=np.float32))
with h5py.File(out + "x-no-rows.h5ad", "w") as f:
    csr_group(f, "X", sp.csr_matrix((0, 30), dtype=np.float32))

# Broken files (first 10 cells): each must give a clear error naming the file and the HDF5 path.
B = X[:10]
with h5py.File(out + "bad-indptr-float.h5ad", "w") as f:
    csr_group(f, "X", B, indptr_dtype=np.float64)
with h5py.File(out + "bad-indptr-decreasing.h5ad", "w") as f:
    g = csr_group(f, "X", B)
    p = B.indptr.copy()
    p[6] = p[5] - 1
    g["indptr"][...] = p
with h5py.File(out + "bad-index-range.h5ad", "w") as f:
    g = csr_group(f, "X", B)
    idx = B.indices.copy()
    idx[B.indptr[7] + 2] = 2000
    g["indices"][...] = idx
with h5py.File(out + "bad-shape.h5ad", "w") as f:
    csr_group(f, "X", B, shape=(9, 2000))
with h5py.File(out + "bad-no-encoding.h5ad", "w") as f:
    g = csr_group(f, "X", B)
    del g.attrs["encoding-type"]
with h5py.File(out + "bad-nnz.h5ad", "w") as f:
    g = csr_group(f, "X", B)
    p = B.indptr.copy()
    p[-1] = p[-1] + 10
    g["indptr"][...] = p

row_sums = np.asarray(X.sum(axis=1, dtype=np.float64)).ravel()
facts = {
    "source": "first 100 cells of synth-3k.h5ad",
    "n_obs": int(X.shape[0]), "n_vars": int(X.shape[1]), "nnz": int(X.nnz),
    "x_sum": float(X.sum(dtype=np.float64)),
    "row_nnz": np.diff(X.indptr).tolist(),
    "row_sums": row_sums.tolist(),
    "empty_rows_nnz": int(E.nnz), "empty_rows_sum": float(E.sum(dtype=np.float64)),
    "empty_rows": [3] + list(range(50, 60)) + [99],
    "dense_f64_nnz": int(np.count_nonzero(d64)),
    "dense_f64_nansum": float(np.nansum(d64)),
    "decreasing_indptr": {"row": 5, "before": int(B.indptr[5]), "after": int(B.indptr[5] - 1)},
}
with open(out + "x-variants.json", "w") as f:
    json.dump(facts, f)
print(json.dumps({k: v for k, v in facts.items() if not isinstance(v, list)}))

# anndata >= 0.11 writes None as an empty dataset with encoding-type "null" (raw=None, a None in uns), and leaves X
# out when it is None, as in expected/pca.h5ad. Built with h5py exactly as anndata 0.12's write_null does.
with h5py.File(out + "nulls-anndata012.h5ad", "w") as f:
    f.attrs["encoding-type"] = "anndata"
    f.attrs["encoding-version"] = "0.1.0"
    for name, n in (("obs", 3), ("var", 2)):
        g = f.create_group(name)
        g.attrs.update({"encoding-type": "dataframe", "encoding-version": "0.2.0", "_index": "_index",
                        "column-order": np.array([], dtype="float64")})
        idx = g.create_dataset("_index", data=np.array([f"{name}{i}" for i in range(n)], dtype=object),
                               dtype=h5py.string_dtype())
        idx.attrs.update({"encoding-type": "string-array", "encoding-version": "0.2.0"})
    for name in ("obsm", "varm", "obsp", "varp", "layers"):
        f.create_group(name).attrs.update({"encoding-type": "dict", "encoding-version": "0.1.0"})
    uns = f.create_group("uns")
    uns.attrs.update({"encoding-type": "dict", "encoding-version": "0.1.0"})
    params = uns.create_group("params")
    params.attrs.update({"encoding-type": "dict", "encoding-version": "0.1.0"})
    for parent, key in ((params, "mask_var"), (f, "raw")):
        d = parent.create_dataset(key, data=h5py.Empty("f"))
        d.attrs.update({"encoding-type": "null", "encoding-version": "0.1.0"})
    z = params.create_dataset("zero_center", data=True)
    z.attrs.update({"encoding-type": "numeric-scalar", "encoding-version": "0.2.0"})
