#!/usr/bin/python3
"""The reference for the operator benchmarks: Debian's numpy, scipy, pandas and anndata doing in memory what scanpy
and decoupler do, step for step (scanpy itself is not packaged by Debian).

usage: reference_steps.py preprocess|pipeline|pseudobulk|rank_genes_groups IN OUT [--target-sum 1e4]
                          [--n-top-genes 2000] [--n-comps 50] [--sample-col sample] [--groups-col cell_type]
                          [--mode sum] [--method t-test|wilcoxon]

- preprocess: calculate_qc_metrics (qc var mt = MT- genes, percent_top 50/100/200, log1p) as scanpy computes it
  (the top-N proportions with numba, rows in parallel, as scanpy does; one np.partition per cell in Python when
  python3-numba is missing), normalize_total (row scaling of
  the CSR data, as sklearn's inplace_row_scale), log1p on .data; writes the result with anndata.
- pipeline: preprocess, then highly_variable_genes(flavor="seurat", n_top_genes) (means/dispersions of expm1, 20
  bins by pd.cut, z-scores within bins), then pca(n_comps) on the HVGs with scanpy's default solver for sparse
  input (arpack through scipy.sparse.linalg.svds on the implicitly centred matrix).
- pseudobulk: decoupler's sum or mean per (group, sample), psbulk_props, psbulk_cells, psbulk_counts, through sparse
  indicator products (pandas for the group table).
- rank_genes_groups: scanpy 1.11's tl.rank_genes_groups(groupby=--groups-col, method) on an IN that is already
  log-normalized, as scanpy does it: per group the rows of the group and of the rest copied out (X[mask], X[~mask])
  and their means and variances taken; t-test through scipy's ttest_ind_from_stats; wilcoxon on dense chunks of
  10,000,000 // n_cells genes ranked column by column with numba in parallel (scanpy's rankdata); Benjamini-Hochberg
  as statsmodels' fdr_bh; log fold changes of expm1'd means; writes the whole AnnData with uns["rank_genes_groups"].
Prints one JSON line with the step timings.
"""
import argparse
import json
import time

import anndata as ad
import numpy as np
try:
    import numba
except ImportError:  # the reference then loops in Python, slower than scanpy's numba kernel
    numba = None
import pandas as pd
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, svds


def _top_sums_python(data, indptr, ns):
    """Each row's sums of its n largest values, n in ns (ascending): one np.partition per row and n."""
    tops = np.zeros((indptr.size - 1, ns.size))
    for r in range(indptr.size - 1):
        row = data[indptr[r]:indptr[r + 1]]
        for j, n in enumerate(ns):
            top = row if len(row) <= n else np.partition(row, len(row) - n)[len(row) - n:]
            tops[r, j] = top.sum(dtype=np.float64)
    return tops


if numba is not None:
    @numba.njit(parallel=True)
    def _top_sums_numba(data, indptr, ns):
        """As scanpy's numba kernel: rows in parallel, the largest ns[-1] values partitioned out, sorted, summed."""
        tops = np.zeros((indptr.size - 1, ns.size))
        most = ns[-1]
        for r in numba.prange(indptr.size - 1):
            row = data[indptr[r]:indptr[r + 1]]
            if row.size > most:
                top = np.sort(np.partition(row, row.size - most)[row.size - most:])[::-1]
            else:
                top = np.sort(row)[::-1]
            acc = 0.0
            j = 0
            for k in range(top.size):
                acc += top[k]
                while j < ns.size and k + 1 == ns[j]:
                    tops[r, j] = acc
                    j += 1
            while j < ns.size:
                tops[r, j] = acc
                j += 1
        return tops


def top_sums(data, indptr, ns):
    """scanpy computes the top-n proportions with numba (Debian: python3-numba); without it, a Python loop."""
    return (_top_sums_numba if numba is not None else _top_sums_python)(data, indptr, ns)


def qc(a, percent_top=(50, 100, 200, 500)):
    X = a.X
    mt = np.asarray(a.var_names.str.startswith("MT-"))
    a.var["mt"] = mt
    n_genes = np.diff(X.indptr).astype(np.int32)
    total = np.asarray(X.sum(axis=1)).ravel().astype(np.float32)
    a.obs["n_genes_by_counts"] = n_genes
    a.obs["log1p_n_genes_by_counts"] = np.log1p(n_genes.astype(np.float64))
    a.obs["total_counts"] = total
    a.obs["log1p_total_counts"] = np.log1p(total)
    tops = top_sums(X.data, X.indptr, np.array(sorted(percent_top), dtype=np.int64))
    with np.errstate(invalid="ignore", divide="ignore"):
        for j, n in enumerate(percent_top):
            a.obs[f"pct_counts_in_top_{n}_genes"] = tops[:, j] / total * 100
        mt_total = np.asarray(X[:, mt].sum(axis=1)).ravel().astype(np.float32)
        a.obs["total_counts_mt"] = mt_total
        a.obs["log1p_total_counts_mt"] = np.log1p(mt_total)
        a.obs["pct_counts_mt"] = mt_total / total * 100
    cells = np.bincount(X.indices, minlength=X.shape[1]).astype(np.int64)
    gene_total = np.bincount(X.indices, weights=X.data, minlength=X.shape[1])
    a.var["n_cells_by_counts"] = cells
    a.var["mean_counts"] = gene_total / X.shape[0]
    a.var["log1p_mean_counts"] = np.log1p(a.var["mean_counts"])
    a.var["pct_dropout_by_counts"] = (1 - cells / X.shape[0]) * 100
    a.var["total_counts"] = gene_total.astype(np.float32)
    a.var["log1p_total_counts"] = np.log1p(a.var["total_counts"])


def normalize_log1p(a, target_sum):
    X = a.X
    counts = np.asarray(X.sum(axis=1)).ravel()
    counts[counts == 0] = 1
    X.data *= np.repeat((target_sum / counts).astype(np.float32), np.diff(X.indptr))
    np.log1p(X.data, out=X.data)
    a.uns["log1p"] = {}


def hvg_seurat(a, n_top):
    X = a.X.copy()
    np.expm1(X.data, out=X.data)
    n = X.shape[0]
    mean = np.asarray(X.mean(axis=0)).ravel().astype(np.float64)
    sq = np.asarray(X.multiply(X).mean(axis=0)).ravel()
    var = (sq - mean ** 2) * n / (n - 1)
    mean[mean == 0] = 1e-12
    disp = var / mean
    disp[disp == 0] = np.nan
    disp = np.log(disp)
    mean = np.log1p(mean)
    df = pd.DataFrame({"means": mean, "dispersions": disp})
    df["bin"] = pd.cut(df["means"], bins=20)
    g = df.groupby("bin", observed=True)["dispersions"]
    df["dispersions_norm"] = (df["dispersions"] - g.transform("mean")) / g.transform("std")
    cut = np.sort(df["dispersions_norm"].fillna(-np.inf).to_numpy())[::-1][n_top - 1]
    a.var["highly_variable"] = (df["dispersions_norm"].fillna(-np.inf) >= cut).to_numpy()
    a.var["means"] = df["means"].to_numpy()
    a.var["dispersions"] = df["dispersions"].to_numpy()
    a.var["dispersions_norm"] = df["dispersions_norm"].to_numpy().astype(np.float32)


def pca(a, n_comps):
    hv = a.var["highly_variable"].to_numpy()
    X = a.X[:, hv].astype(np.float64).tocsr()
    mu = np.asarray(X.mean(axis=0)).ravel()
    ones = np.ones(X.shape[0])
    op = LinearOperator(X.shape, dtype=np.float64,
                        matvec=lambda v: X @ v - mu @ v * ones,
                        rmatvec=lambda v: X.T @ v - mu * v.sum(),
                        matmat=lambda m: X @ m - np.outer(ones, mu @ m),
                        rmatmat=lambda m: X.T @ m - np.outer(mu, m.sum(axis=0)))
    u, s, vt = svds(op, k=n_comps, solver="arpack", v0=np.random.RandomState(0).uniform(-1, 1, min(X.shape)))
    order = np.argsort(-s)
    u, s, vt = u[:, order], s[order], vt[order]
    a.obsm["X_pca"] = (u * s).astype(np.float32)
    pcs = np.zeros((a.n_vars, n_comps), dtype=np.float32)
    pcs[hv] = vt.T
    a.varm["PCs"] = pcs
    var = s ** 2 / (X.shape[0] - 1)
    total = (np.asarray(X.multiply(X).sum(axis=0)).ravel() - X.shape[0] * mu ** 2).sum() / (X.shape[0] - 1)
    a.uns["pca"] = {"variance": var, "variance_ratio": var / total}


def pseudobulk(a, sample_col, groups_col, mode):
    obs = a.obs[[sample_col, groups_col]].astype(str)
    keys = obs[groups_col] + "\t" + obs[sample_col]
    table = pd.DataFrame({"g": obs[groups_col], "s": obs[sample_col]}).drop_duplicates().sort_values(["g", "s"])
    names = (table["s"] + "_" + table["g"]).tolist()
    code = pd.Categorical(keys, categories=(table["g"] + "\t" + table["s"]).tolist()).codes
    ind = sp.csr_matrix((np.ones(a.n_obs), (code, np.arange(a.n_obs))), shape=(len(names), a.n_obs))
    X = a.X.tocsr()
    sums = np.asarray((ind @ X).todense(), dtype=np.float64)
    cells = np.asarray(ind.sum(axis=1)).ravel()
    nz = X.copy()
    nz.data = np.ones_like(nz.data)
    props = np.asarray((ind @ nz).todense(), dtype=np.float64) / cells[:, None]
    out = ad.AnnData(X=sums / cells[:, None] if mode == "mean" else sums,
                     obs=pd.DataFrame({sample_col: table["s"].to_numpy(), groups_col: table["g"].to_numpy(),
                                       "psbulk_cells": cells, "psbulk_counts": sums.sum(axis=1)}, index=names),
                     var=a.var.copy(), layers={"psbulk_props": props})
    return out


def _mean_var_python(indices, data, n_rows, n_cols):
    data = data.astype(np.float64)
    return (np.bincount(indices, weights=data, minlength=n_cols),
            np.bincount(indices, weights=data * data, minlength=n_cols))


if numba is not None:
    @numba.njit
    def _sums_numba(indices, data, n_rows, n_cols):
        """Each column's sum and sum of squares in float64, one sweep over the values, no temporary arrays."""
        s = np.zeros(n_cols)
        sq = np.zeros(n_cols)
        for k in range(indices.size):
            v = np.float64(data[k])
            s[indices[k]] += v
            sq[indices[k]] += v * v
        return s, sq


def _mean_var(x):
    """fast_array_utils' mean_var(x, axis=0, correction=1) of a CSR matrix, in float64 (numba, as it is)."""
    n = x.shape[0]
    s, sq = (_sums_numba if numba is not None else _mean_var_python)(x.indices, x.data, n, x.shape[1])
    mean = s / n
    return mean, (sq / n - mean ** 2) * n / (n - 1)


if numba is not None:
    @numba.njit(parallel=True)
    def _rankdata(data):
        """scanpy's rankdata: scipy's average ranks of each column, columns in parallel."""
        ranked = np.empty(data.shape, dtype=np.float64)
        for j in numba.prange(data.shape[1]):
            arr = np.ravel(data[:, j])
            sorter = np.argsort(arr)
            arr = arr[sorter]
            obs = np.concatenate((np.array([True]), arr[1:] != arr[:-1]))
            dense = np.empty(obs.size, dtype=np.int64)
            dense[sorter] = obs.cumsum()
            count = np.concatenate((np.flatnonzero(obs), np.array([len(obs)])))
            ranked[:, j] = 0.5 * (count[dense] + count[dense - 1] + 1)
        return ranked
else:
    def _rankdata(data):
        from scipy.stats import rankdata
        return rankdata(data, axis=0)


def _fdr_bh(p):
    """statsmodels' multipletests(p, method="fdr_bh")[1]."""
    order = np.argsort(p)
    ranked = p[order] * p.size / np.arange(1, p.size + 1)
    adj = np.minimum(np.minimum.accumulate(ranked[::-1])[::-1], 1)
    out = np.empty_like(adj)
    out[order] = adj
    return out


def rank_genes_groups(a, groupby, method):
    from scipy import stats
    col = a.obs[groupby].astype("category")
    groups = [str(c) for c in col.cat.categories]
    codes = col.cat.codes.to_numpy()
    masks = np.array([codes == i for i in range(len(groups))])
    X = a.X
    X.eliminate_zeros()
    n_cells, n_genes = X.shape
    means = np.zeros((len(groups), n_genes))
    vars_ = np.zeros_like(means)
    means_rest = np.zeros_like(means)
    vars_rest = np.zeros_like(means)
    for g, mask in enumerate(masks):
        means[g], vars_[g] = _mean_var(X[mask])
        rest = X[~mask]
        means_rest[g], vars_rest[g] = _mean_var(rest)
        del rest
    sizes = masks.sum(axis=1)
    scores = np.zeros((len(groups), n_genes))
    pvals = np.zeros_like(scores)
    if method == "wilcoxon":
        chunk = max(10_000_000 // n_cells, 1)
        for left in range(0, n_genes, chunk):
            right = min(left + chunk, n_genes)
            ranks = _rankdata(X[:, left:right].toarray())
            for g, mask in enumerate(masks):
                scores[g, left:right] = ranks[mask, :].sum(axis=0)
        for g in range(len(groups)):
            n = sizes[g]
            scores[g] = (scores[g] - n * (n_cells + 1) / 2.0) / np.sqrt(n * (n_cells - n) * (n_cells + 1) / 12.0)
            scores[g][np.isnan(scores[g])] = 0
            pvals[g] = 2 * stats.distributions.norm.sf(np.abs(scores[g]))
    else:
        for g in range(len(groups)):
            with np.errstate(invalid="ignore"):
                scores[g], pvals[g] = stats.ttest_ind_from_stats(
                    mean1=means[g], std1=np.sqrt(vars_[g]), nobs1=sizes[g], mean2=means_rest[g],
                    std2=np.sqrt(vars_rest[g]), nobs2=n_cells - sizes[g], equal_var=False)
            scores[g][np.isnan(scores[g])] = 0
            pvals[g][np.isnan(pvals[g])] = 1
    names = np.asarray(a.var_names)
    fields = {k: [] for k in ("names", "scores", "logfoldchanges", "pvals", "pvals_adj")}
    for g in range(len(groups)):
        order = np.argsort(scores[g])[::-1]
        lfc = np.log2((np.expm1(means[g]) + 1e-9) / (np.expm1(means_rest[g]) + 1e-9))
        fields["names"].append(names[order])
        fields["scores"].append(scores[g][order].astype(np.float32))
        fields["logfoldchanges"].append(lfc[order].astype(np.float32))
        fields["pvals"].append(pvals[g][order])
        fields["pvals_adj"].append(_fdr_bh(pvals[g])[order])
    result = {"params": {"groupby": groupby, "reference": "rest", "method": method, "use_raw": False,
                         "corr_method": "benjamini-hochberg"}}
    for key, columns in fields.items():
        dtype = object if key == "names" else columns[0].dtype
        result[key] = np.rec.fromarrays(columns, dtype=[(g, dtype) for g in groups])
    a.uns["rank_genes_groups"] = result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("step", choices=["preprocess", "pipeline", "pseudobulk", "rank_genes_groups"])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--target-sum", type=float, default=1e4)
    p.add_argument("--n-top-genes", type=int, default=2000)
    p.add_argument("--n-comps", type=int, default=50)
    p.add_argument("--sample-col", default="sample")
    p.add_argument("--groups-col", default="cell_type")
    p.add_argument("--mode", default="sum")
    p.add_argument("--method", default="t-test", choices=["t-test", "wilcoxon"])
    o = p.parse_args()
    t = {}
    # scanpy loads its numba kernels from numba's cache; compile ours before the clock starts (a cache on disk
    # broke when the same file was run as a script and imported)
    top_sums(np.ones(4, dtype=np.float32), np.array([0, 2, 4]), np.array([1, 2], dtype=np.int64))
    _rankdata(np.ones((3, 2), dtype=np.float32))
    _mean_var(sp.csr_matrix(np.ones((2, 2), dtype=np.float32)))
    start = time.perf_counter()
    a = ad.read_h5ad(o.input)
    a.X = sp.csr_matrix((a.X.data, a.X.indices.astype(np.int32), a.X.indptr.astype(np.int64)), shape=a.X.shape)
    t["read_s"] = time.perf_counter() - start
    mark = time.perf_counter()
    if o.step == "pseudobulk":
        result = pseudobulk(a, o.sample_col, o.groups_col, o.mode)
    elif o.step == "rank_genes_groups":
        rank_genes_groups(a, o.groups_col, o.method)
        result = a
    else:
        qc(a)
        normalize_log1p(a, np.float32(o.target_sum))
        if o.step == "pipeline":
            hvg_seurat(a, o.n_top_genes)
            pca(a, o.n_comps)
        result = a
    t["compute_s"] = time.perf_counter() - mark
    mark = time.perf_counter()
    result.write_h5ad(o.output)
    t["write_s"] = time.perf_counter() - mark
    t["total_s"] = time.perf_counter() - start
    print(json.dumps({"tool": "reference", "step": o.step, **t}))


if __name__ == "__main__":
    main()
