#!/usr/bin/python3
"""Reads X of an .h5ad with h5py in the row slices scflux streams it in, and prints one JSON line with the same
keys as `scflux bench read`: the reference for read throughput.

usage: h5py_read.py FILE [--chunk-nnz N] [--max-rows N] [--repeat R]

Each slice reads indptr, data and indices of its rows and sums the data (float64), as scflux's blocks do.
MB are the stored bytes of data and indices, as in scflux's report.
"""
import argparse
import json
import time

import h5py
import numpy as np

DEFAULT_CHUNK_NNZ = 1 << 22   # io.scflux.core.PlanTarget.DEFAULT_CHUNK_NNZ
DEFAULT_MAX_ROWS = 1 << 16    # io.scflux.core.PlanTarget.DEFAULT_MAX_ROWS


def plan(indptr, chunk_nnz, max_rows):
    """Row bounds of the blocks as io.scflux.core.BlockPlan cuts them: a block closes before the row that would take
    it over chunk_nnz entries (a larger row gets a block of its own) or when it has max_rows rows."""
    bounds = [0]
    rows = nnz = 0
    for r, count in enumerate(np.diff(indptr).tolist()):
        if rows > 0 and (nnz + count > chunk_nnz or rows == max_rows):
            bounds.append(r)
            rows = nnz = 0
        rows += 1
        nnz += count
    if rows > 0:
        bounds.append(len(indptr) - 1)
    return bounds


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--chunk-nnz", type=int, default=DEFAULT_CHUNK_NNZ)
    p.add_argument("--max-rows", type=int, default=DEFAULT_MAX_ROWS)
    p.add_argument("--repeat", type=int, default=1)
    a = p.parse_args()
    with h5py.File(a.file, "r") as f:
        x = f["X"]
        encoding = x.attrs.get("encoding-type")
        if encoding != "csr_matrix":
            raise SystemExit(f"h5py_read.py: {a.file}: /X: expected csr_matrix, found {encoding}")
        data, indices, indptr_ds = x["data"], x["indices"], x["indptr"]
        opened = time.perf_counter()
        indptr = indptr_ds[:]
        bounds = plan(indptr, a.chunk_nnz, a.max_rows)
        plan_s = time.perf_counter() - opened
        seconds = []
        total = 0.0
        for _ in range(a.repeat):
            started = time.perf_counter()
            total = 0.0
            for b in range(len(bounds) - 1):
                ptr = indptr_ds[bounds[b]:bounds[b + 1] + 1]
                lo, hi = int(ptr[0]), int(ptr[-1])
                values = data[lo:hi]
                columns = indices[lo:hi]
                if columns.shape != values.shape:
                    raise SystemExit(f"h5py_read.py: {a.file}: /X: data and indices differ in length")
                total += float(values.sum(dtype=np.float64))
            seconds.append(time.perf_counter() - started)
        nnz = int(indptr[-1])
        best = min(seconds)
        print(json.dumps({
            "tool": "h5py",
            "file": a.file,
            "encoding": encoding,
            "compression": data.compression or "none",
            "threads": 1,
            "chunk_nnz": a.chunk_nnz,
            "blocks": len(bounds) - 1,
            "n_obs": len(indptr) - 1,
            "n_vars": int(x.attrs["shape"][1]),
            "nnz": nnz,
            "x_sum": total,
            "plan_s": plan_s,
            "seconds": seconds,
            "nnz_per_s": nnz / best,
            "mb_per_s": nnz * (data.dtype.itemsize + indices.dtype.itemsize) / best / 1e6,
        }))


if __name__ == "__main__":
    main()
