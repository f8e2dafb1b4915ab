"""The reference checks: a scflux result against what scanpy, decoupler or anndata returned for the same call
(the README of the expected outputs gives each call). Shared by the step tests and the fixture x step matrix."""

import anndata
import h5py
import numpy as np
import pandas as pd
import scipy.sparse as sp

from conftest import COUNTS, EXPECTED, assert_close, expected_csv

QC_OBS_DTYPES = {"n_genes_by_counts": "int32", "log1p_n_genes_by_counts": "float64", "total_counts": "float32",
                 "log1p_total_counts": "float32", "pct_counts_in_top_50_genes": "float64",
                 "pct_counts_in_top_100_genes": "float64", "pct_counts_in_top_200_genes": "float64",
                 "total_counts_mt": "float32", "log1p_total_counts_mt": "float32", "pct_counts_mt": "float32"}
QC_VAR_DTYPES = {"n_cells_by_counts": "int64", "mean_counts": "float64", "log1p_mean_counts": "float64",
                 "pct_dropout_by_counts": "float64", "total_counts": "float32", "log1p_total_counts": "float32"}
HVG_DTYPES = {"highly_variable": "bool", "means": "float64", "dispersions": "float64", "dispersions_norm": "float32",
              "highly_variable_rank": "float32", "variances": "float64", "variances_norm": "float64",
              "highly_variable_nbatches": "int64", "highly_variable_intersection": "bool"}


def check_qc(obs, var, *, log1p=True, exact_columns=True):
    """Every reference column (the log1p_ ones only with log1p), values within 1e-6 and scanpy's dtypes; with
    ``exact_columns`` the frames hold exactly scanpy's columns in scanpy's order."""
    for frame, name, dtypes in ((obs, "qc_obs", QC_OBS_DTYPES), (var, "qc_var", QC_VAR_DTYPES)):
        ref = expected_csv(name)
        columns = [c for c in dtypes if log1p or not c.startswith("log1p_")]
        if exact_columns:
            assert list(frame.columns) == columns, name
        assert list(frame.index) == list(ref.index), f"{name}: names and order"
        for c in columns:
            assert str(frame[c].dtype) == dtypes[c], f"{name} {c}"
            assert_close(frame[c], ref[c], rtol=1e-6, what=f"{name} {c}")


def check_normalized(x, name: str, cells) -> None:
    """X against scanpy's cut ``name``: every stored entry of the first 100 cells, and every row and column sum,
    within 1e-6 relative."""
    x = sp.csr_matrix(x)
    assert x.dtype == np.float32
    rows = expected_csv(f"{name}_rows")
    first = x[:100]
    assert first.nnz == len(rows), "entries of the first 100 cells"
    np.testing.assert_array_equal(np.repeat(np.asarray(cells[:100]), np.diff(first.indptr)), rows.index.to_numpy())
    np.testing.assert_array_equal(first.indices, rows["gene_index"].to_numpy())
    assert_close(first.data, rows["value"], 1e-6, f"{name} entries")
    sums = expected_csv(f"{name}_sums")
    x64 = x.astype(np.float64)
    assert_close(np.asarray(x64.sum(axis=1)).ravel(), sums.loc["row", "sum"], 1e-6, f"{name} row sums")
    assert_close(np.asarray(x64.sum(axis=0)).ravel(), sums.loc["col", "sum"], 1e-6, f"{name} column sums")


def check_hvg(var: pd.DataFrame, name: str) -> None:
    """The same genes selected; each numeric column within 1e-5 relative (normalized dispersions within 1e-5 of
    max(|expected|, 1)); seurat_v3's ranks equal up to the order of genes of equal normalized variance."""
    ref = expected_csv(name)
    assert list(var.index) == list(ref.index)
    np.testing.assert_array_equal(var["highly_variable"].to_numpy(), ref["highly_variable"].to_numpy().astype(bool))
    assert var["highly_variable"].sum() == 500
    for c in ref.columns:
        assert str(var[c].dtype) == HVG_DTYPES[c], c
        if c in ("highly_variable", "highly_variable_intersection", "highly_variable_rank"):
            continue
        e, a = ref[c].to_numpy(np.float64), var[c].to_numpy(np.float64)
        scale = np.maximum(np.abs(e), 1) if c.endswith("_norm") else np.abs(e)
        assert np.array_equal(np.isnan(e), np.isnan(a)), f"{c}: NaN at the same genes"
        ok = ~np.isnan(e)
        assert np.all(np.abs(a[ok] - e[ok]) <= 1e-5 * scale[ok]), f"{name} {c}"
    if "highly_variable_intersection" in ref:
        np.testing.assert_array_equal(var["highly_variable_intersection"].to_numpy(),
                                      ref["highly_variable_intersection"].to_numpy().astype(bool))
    if "highly_variable_rank" in ref:
        e, a = ref["highly_variable_rank"].to_numpy(), var["highly_variable_rank"].to_numpy(np.float64)
        assert np.array_equal(np.isnan(e), np.isnan(a))
        ranked = ~np.isnan(e)
        ties = ref["variances_norm"].to_numpy()[ranked]
        for value in np.unique(ties):  # within a group of equal variances_norm the ranks may be permuted
            group = ties == value
            assert sorted(a[ranked][group]) == sorted(e[ranked][group]), f"ranks of variances_norm {value}"


def reference_scores() -> np.ndarray:
    with h5py.File(EXPECTED / "pca.h5ad", "r") as f:  # written by anndata 0.12: read its arrays with h5py
        return f["obsm/X_pca"][:]


def check_pca(result: anndata.AnnData, *, rtol_variance=1e-4, atol_loadings=1e-3) -> None:
    """variance and variance_ratio within ``rtol_variance``; loadings of the reference's genes within
    ``atol_loadings`` up to each component's sign (0 for the other genes); scores correlated >= 0.9999."""
    variance = expected_csv("pca_variance")
    uns = result.uns["pca"]
    assert np.asarray(uns["variance"]).dtype == np.float32
    assert_close(uns["variance"], variance["variance"], rtol_variance, "variance")
    assert_close(uns["variance_ratio"], variance["variance_ratio"], rtol_variance, "variance_ratio")
    loadings = expected_csv("pca_loadings")
    pcs = np.asarray(result.varm["PCs"], dtype=np.float64)
    assert pcs.shape == (result.n_vars, 30)
    rows = result.var_names.get_indexer(loadings.index)
    assert (rows >= 0).all()
    mine = pcs[rows]
    signs = np.sign(np.sum(mine * loadings.to_numpy(), axis=0))
    assert_close(mine * signs, loadings.to_numpy(), 0, "loadings up to sign", atol=atol_loadings)
    others = np.setdiff1d(np.arange(result.n_vars), rows)
    assert np.all(pcs[others] == 0), "genes outside the mask have zero loadings"
    scores = np.asarray(result.obsm["X_pca"])
    assert scores.dtype == np.float32 and scores.shape == (3000, 30)
    ref = reference_scores()
    for j in range(30):
        assert abs(np.corrcoef(scores[:, j], ref[:, j])[0, 1]) >= 0.9999, f"PC{j + 1} scores"


def check_pseudobulk(result: anndata.AnnData, mode: str) -> None:
    """decoupler's rows in its order, obs columns and dtypes, X and psbulk_props gene by gene (its genes were
    shuffled; ours keep the input's order)."""
    ref = anndata.read_h5ad(EXPECTED / f"pseudobulk_{mode}.h5ad")
    obs = expected_csv(f"pseudobulk_{mode}_obs")
    assert list(result.obs_names) == list(obs.index), "rows and their order"
    assert list(result.obs.columns) == list(obs.columns)
    for c in ("sample", "cell_type", "batch"):
        assert result.obs[c].dtype == "category", c
        assert list(result.obs[c].astype(str)) == list(obs[c]), c
    for c in ("psbulk_cells", "psbulk_counts"):
        assert result.obs[c].dtype == np.float64
        assert_close(result.obs[c], obs[c], 0, c)
    # decoupler 2.1.1 shuffled its genes: compare gene by gene; the input's order is kept
    assert list(result.var_names) == list(anndata.read_h5ad(COUNTS, backed="r").var_names)
    genes = ref.var_names.get_indexer(result.var_names)
    x = result.X.toarray() if sp.issparse(result.X) else np.asarray(result.X)
    assert x.dtype == np.float64
    assert_close(x, ref.X[:, genes], 1e-12, f"{mode} X")
    assert_close(np.asarray(result.layers["psbulk_props"]), ref.layers["psbulk_props"][:, genes], 1e-12,
                 "psbulk_props")


def check_concat(result: anndata.AnnData, join: str) -> None:
    """anndata's obs and var names, obs columns with categories and code types, X's type and shape, and every
    row's and column's entries (count, sum, position-weighted sum) of the concat_* extracts."""
    name = f"concat_{join}"
    meta = expected_csv(f"{name}_meta")["value"].to_dict()
    obs, var = expected_csv(f"{name}_obs"), expected_csv(f"{name}_var")
    assert list(result.obs_names) == list(obs.index)
    assert list(result.var_names) == list(var.index)
    assert ";".join(result.obs.columns) == meta["obs_columns"]
    assert ";".join(result.var.columns) == (meta["var_columns"] or "")
    for c in result.obs.columns:
        kind, codes, categories = meta[f"obs_{c}"].split(";")
        assert kind == "categorical" and result.obs[c].dtype == "category", c
        assert list(result.obs[c].cat.categories) == categories.split("|"), c
        assert str(result.obs[c].cat.codes.dtype) == codes, c
        assert list(result.obs[c].astype(str)) == list(obs[c]), c
    x = sp.csr_matrix(result.X)
    assert str(x.dtype) == meta["X_dtype"]
    assert f"{x.shape[0]};{x.shape[1]}" == meta["X_shape"]
    rows, cols = expected_csv(f"{name}_rows"), expected_csv(f"{name}_cols")
    x64 = x.astype(np.float64)
    assert_close(np.diff(x.indptr), rows["nnz"], 0, "row nnz")
    assert_close(np.asarray(x64.sum(axis=1)).ravel(), rows["sum"], 0, "row sums")
    assert_close(np.asarray((x64 @ sp.diags(np.arange(1, x.shape[1] + 1))).sum(axis=1)).ravel(), rows["weighted"],
                 0, "row entries by position")
    assert_close(np.bincount(x.indices, minlength=x.shape[1]), cols["nnz"], 0, "column nnz")
    assert_close(np.asarray(x64.sum(axis=0)).ravel(), cols["sum"], 0, "column sums")
