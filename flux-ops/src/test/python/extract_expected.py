"""Copies the reference outputs of ../shared/fixtures/expected (scanpy 1.11 / decoupler 2.1 / anndata 0.12, see
the README there for the exact calls) into flux-ops test resources, compacted to fit the repository's data budget.
Nothing here computes a result: every number is the reference's own, copied or cut.

    cd flux-ops/src/test/python && /usr/bin/python3 extract_expected.py

- CSV outputs are gzipped unchanged.
- pca, scaled and pseudobulk outputs are copied unchanged (small .h5ad files scflux reads itself).
- normalized_log1p and normalized_median (2.5 MB each) are cut to: every stored entry of the first 100 cells,
  and the float64 sum of every row and every column of the whole reference matrix.
Read with h5py, not anndata: Debian's anndata 0.8 cannot read anndata 0.12's null elements.
"""
import gzip
import shutil
import sys

import h5py
import numpy as np

src = (sys.argv[1] if len(sys.argv) > 1 else "../../../../../shared/fixtures/expected") + "/"
out = "../resources/expected/"

for name in ["qc_obs", "qc_var", "hvg_seurat", "hvg_cell_ranger", "hvg_seurat_v3", "hvg_seurat_batch",
             "pca_loadings", "pca_variance", "pseudobulk_sum_obs", "pseudobulk_mean_obs",
             "rgg_t-test", "rgg_t-test_overestim_var", "rgg_wilcoxon"]:
    with open(src + name + ".csv", "rb") as f, gzip.GzipFile(out + name + ".csv.gz", "wb", mtime=0) as g:
        shutil.copyfileobj(f, g)

for name in ["pca", "scaled", "pseudobulk_sum", "pseudobulk_mean"]:
    shutil.copyfile(src + name + ".h5ad", out + name + ".h5ad")

ROWS = 100
for name in ["normalized_log1p", "normalized_median"]:
    with h5py.File(src + name + ".h5ad", "r") as f:
        x = f["X"]
        n, g = (int(v) for v in x.attrs["shape"])
        indptr = x["indptr"][:]
        data = x["data"][:]
        indices = x["indices"][:]
        row_sums = np.add.reduceat(data.astype(np.float64), indptr[:-1]) if len(data) else np.zeros(n)
        row_sums[np.diff(indptr) == 0] = 0
        col_sums = np.bincount(indices, weights=data.astype(np.float64), minlength=g)
        names = [s.decode() for s in f["obs"]["_index"][:]]
        with gzip.open(out + name + "_rows.csv.gz", "wt", compresslevel=9) as w:
            w.write("cell,gene_index,value\n")
            for r in range(ROWS):
                for k in range(indptr[r], indptr[r + 1]):
                    w.write(f"{names[r]},{indices[k]},{float(data[k])!r}\n")
        with gzip.open(out + name + "_sums.csv.gz", "wt", compresslevel=9) as w:
            w.write("axis,index,sum\n")
            for r in range(n):
                w.write(f"row,{r},{row_sums[r]!r}\n")
            for c in range(g):
                w.write(f"col,{c},{col_sums[c]!r}\n")

# rank_genes_groups ranks every value, so its reference needs scanpy's very input: normalized_log1p (2.5 MB) cut to
# the entries where numpy's float32 log1p rounds otherwise than float32(log1p(float64)) of the same float32 quotient
# (the tests' own arithmetic, ReferenceInput): about 4% of them, each one ulp away; the values are the reference's.
with h5py.File(src + "normalized_log1p.h5ad", "r") as f, \
        h5py.File(src + "../synth-3k.anndata.h5ad", "r") as c:
    ref = f["X"]["data"][:]
    indptr = c["X"]["indptr"][:]
    counts = c["X"]["data"][:]
    assert (f["X"]["indptr"][:] == indptr).all() and (f["X"]["indices"][:] == c["X"]["indices"][:]).all()
    mine = np.empty_like(counts)
    for r in range(len(indptr) - 1):
        s, e = indptr[r], indptr[r + 1]
        factor = np.float32(counts[s:e].astype(np.float64).sum()) / np.float32(1e4)
        mine[s:e] = np.log1p((counts[s:e] / factor).astype(np.float64)).astype(np.float32)
    with gzip.GzipFile(out + "rgg_input_ulps.csv.gz", "wb", mtime=0) as g:
        g.write(b"entry,value\n")
        for k in np.nonzero(mine != ref)[0]:
            g.write(f"{k},{float(ref[k])!r}\n".encode())
