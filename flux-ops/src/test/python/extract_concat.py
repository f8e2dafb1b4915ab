"""Copies anndata 0.12's concat outputs (../shared/fixtures/expected/concat_{inner,outer}.h5ad, the calls in the
README there) into flux-ops test resources, cut to what a comparison needs (the .h5ad files are 2.3 and 2.8 MB):

- concat_{join}_obs.csv.gz: obs names in order and every obs column's values;
- concat_{join}_var.csv.gz: var names in order;
- concat_{join}_rows.csv.gz: each row's stored entries, float64 sum of values, and sum of (column + 1) * value;
- concat_{join}_cols.csv.gz: each column's stored entries and float64 sum of values;
- concat_{join}_meta.csv.gz: X encoding, dtype and shape, obs column order, each obs column's encoding, code type and
  categories (';'-joined, in order), and the var column order.

Nothing here computes a result: the numbers are the reference's own, summed. Read with h5py.

    cd flux-ops/src/test/python && /usr/bin/python3 extract_concat.py
"""
import gzip
import sys

import h5py
import numpy as np

src = (sys.argv[1] if len(sys.argv) > 1 else "../../../../../shared/fixtures/expected") + "/"
out = "../resources/expected/"


def strings(d):
    return [s.decode() if isinstance(s, bytes) else str(s) for s in d[:]]


def write(name, header, rows):
    with gzip.GzipFile(out + name + ".csv.gz", "wb", mtime=0, compresslevel=9) as g:
        g.write((",".join(header) + "\n").encode())
        for r in rows:
            g.write((",".join(str(v) for v in r) + "\n").encode())


for join in ["inner", "outer"]:
    with h5py.File(src + "concat_" + join + ".h5ad", "r") as f:
        x = f["X"]
        n, g = (int(v) for v in x.attrs["shape"])
        indptr = x["indptr"][:]
        indices = x["indices"][:].astype(np.int64)
        data = x["data"][:].astype(np.float64)
        row_nnz = np.diff(indptr)
        row_of = np.repeat(np.arange(n), row_nnz)
        row_sum = np.bincount(row_of, weights=data, minlength=n)
        row_weighted = np.bincount(row_of, weights=data * (indices + 1), minlength=n)
        col_nnz = np.bincount(indices, minlength=g)
        col_sum = np.bincount(indices, weights=data, minlength=g)
        obs = f["obs"]
        cells = strings(obs[obs.attrs["_index"]])
        genes = strings(f["var"][f["var"].attrs["_index"]])
        order = [str(c) for c in obs.attrs["column-order"]]
        meta = [("X_encoding", x.attrs["encoding-type"]), ("X_dtype", x["data"].dtype.name),
                ("X_shape", "%d;%d" % (n, g)), ("obs_columns", ";".join(order)),
                ("var_columns", ";".join(str(c) for c in f["var"].attrs["column-order"]))]
        values = []
        for c in order:
            e = obs[c]
            enc = e.attrs["encoding-type"]
            if enc == "categorical":
                cats = strings(e["categories"])
                codes = e["codes"][:]
                meta.append(("obs_" + c, "categorical;%s;%s" % (codes.dtype.name, "|".join(cats))))
                values.append(["NaN" if k < 0 else cats[k] for k in codes])
            else:
                meta.append(("obs_" + c, "%s;%s" % (enc, e.dtype.name)))
                values.append(strings(e) if e.dtype.kind in "OSU" else [repr(float(v)) for v in e[:]])
        write("concat_" + join + "_obs", ["cell"] + order, ([cells[i]] + [v[i] for v in values] for i in range(n)))
        write("concat_" + join + "_var", ["gene"], ([s] for s in genes))
        write("concat_" + join + "_rows", ["cell", "nnz", "sum", "weighted"],
              ([cells[i], int(row_nnz[i]), repr(float(row_sum[i])), repr(float(row_weighted[i]))] for i in range(n)))
        write("concat_" + join + "_cols", ["gene", "nnz", "sum"],
              ([genes[j], int(col_nnz[j]), repr(float(col_sum[j]))] for j in range(g)))
        write("concat_" + join + "_meta", ["element", "value"], meta)
