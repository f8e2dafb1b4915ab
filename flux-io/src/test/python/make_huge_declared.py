"""Writes fixtures whose datasets declare far more data than they store (chunked, no chunk written: HDF5 returns the
fill value), to check that scflux refuses sizes beyond its memory budget before allocating.

    /usr/bin/python3 make_huge_declared.py ../resources/fixtures
"""
import shutil
import sys

import h5py

out = sys.argv[1]

# An AnnData with obsm["X_huge"]: n_obs x 2^28 float64 (2 TiB at 1,000 cells), stored as nothing.
shutil.copy(f"{out}/nulls-anndata012.h5ad", f"{out}/huge-obsm.h5ad")
with h5py.File(f"{out}/huge-obsm.h5ad", "r+") as f:
    n_obs = f["obs"][f["obs"].attrs["_index"]].shape[0]
    obsm = f.require_group("obsm")
    d = obsm.create_dataset("X_huge", shape=(n_obs, 1 << 28), dtype="float64", chunks=(1, 1 << 16))
    d.attrs["encoding-type"] = "array"
    d.attrs["encoding-version"] = "0.2.0"

# A dense X of n_obs x 2^30 float32: one row alone is 4 GiB.
shutil.copy(f"{out}/nulls-anndata012.h5ad", f"{out}/huge-dense-x.h5ad")
with h5py.File(f"{out}/huge-dense-x.h5ad", "r+") as f:
    if "X" in f:
        del f["X"]
    n_obs = f["obs"][f["obs"].attrs["_index"]].shape[0]
    n_vars = 1 << 30
    x = f.create_dataset("X", shape=(n_obs, n_vars), dtype="float32", chunks=(1, 1 << 20))
    x.attrs["encoding-type"] = "array"
    x.attrs["encoding-version"] = "0.2.0"
    del f["var"]
    var = f.create_group("var")
    var.attrs["encoding-type"] = "dataframe"
    var.attrs["encoding-version"] = "0.2.0"
    var.attrs["_index"] = "_index"
    var.attrs["column-order"] = []
    var.create_dataset("_index", shape=(n_vars,), dtype=h5py.string_dtype(), chunks=(1 << 16,))
