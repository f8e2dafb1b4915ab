"""The notebook's container (``scflux.read_h5ad``): steps change it in place as scanpy's change an AnnData, with
scanpy's numbers (the same references as the file-based tests), columns set in pandas are what the next step reads,
selections and layers are lazy views, and ``write_h5ad`` writes once, leaving the input as it was."""

import json
import subprocess
import sys
import textwrap

import anndata
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import scflux
from conftest import COUNTS, PYTHON, assert_close, counts_matrix, leftovers, sha256
from references import check_hvg, check_normalized, check_pca, check_pseudobulk, check_qc
from test_filter import check_against_scanpy

QC_CALL = dict(percent_top=(50, 100, 200))


@pytest.fixture
def adata(engine):
    return scflux.read_h5ad(COUNTS)


def lognormalized(a):
    scflux.pp.normalize_total(a, target_sum=1e4)
    scflux.pp.log1p(a)
    return a


def test_reads_as_anndata_does(adata):
    ref = anndata.read_h5ad(COUNTS)
    assert adata.shape == ref.shape and isinstance(adata.obs, pd.DataFrame)
    assert list(adata.obs_names) == list(ref.obs_names) and list(adata.var_names) == list(ref.var_names)
    pd.testing.assert_frame_equal(adata.obs, ref.obs)
    pd.testing.assert_frame_equal(adata.var, ref.var)
    assert isinstance(adata.X, scflux.XView) and adata.X.shape == ref.shape
    assert (adata.X.to_memory() != sp.csr_matrix(ref.X, dtype=np.float32)).nnz == 0


def test_rich_annotations_cross_both_ways(engine, tmp_path):
    """A file anndata 0.8 wrote with every kind of column and uns entry (categoricals with unused categories and
    order, nullable integers and booleans, strings, non-ASCII names, nested uns): pandas holds what anndata reads,
    and write_h5ad gives it back. float16 is read as float32 (Java has no float16), its values kept."""
    path = COUNTS.parent / "rich.anndata08.h5ad"
    ref = anndata.read_h5ad(path)
    a = scflux.read_h5ad(path)
    out = tmp_path / "rich.h5ad"
    a.write_h5ad(out)
    back = anndata.read_h5ad(out)
    for frame in (a.obs, back.obs):
        f16 = [c for c in ref.obs.columns if ref.obs[c].dtype == np.float16]
        pd.testing.assert_frame_equal(frame.drop(columns=f16), ref.obs.drop(columns=f16))
        for c in f16:
            np.testing.assert_array_equal(frame[c].to_numpy(np.float32), ref.obs[c].to_numpy(np.float32))
    for frame in (a.var, back.var):
        pd.testing.assert_frame_equal(frame, ref.var)
    assert back.uns.keys() == ref.uns.keys()
    for key in ref.uns:
        if isinstance(ref.uns[key], np.ndarray):
            np.testing.assert_array_equal(np.asarray(a.uns[key]), ref.uns[key], err_msg=key)
    assert leftovers(tmp_path) == []


def test_notebook_flow_matches_scanpy(adata):
    before = sha256(COUNTS)
    adata.var["mt"] = adata.var_names.str.startswith("MT-")  # set in pandas: what the next step reads
    assert scflux.pp.calculate_qc_metrics(adata, qc_vars=["mt"], inplace=True, **QC_CALL) is None
    lognormalized(adata)  # QC's columns are made on the way, by normalize_total's pass
    check_qc(adata.obs, adata.var, exact_columns=False)
    assert "log1p" in adata.uns
    check_normalized(adata.X.to_memory(), "normalized_log1p", adata.obs_names)
    scflux.pp.highly_variable_genes(adata, flavor="seurat", n_top_genes=500)
    check_hvg(adata.var, "hvg_seurat")
    scflux.pp.pca(adata, n_comps=30, svd_solver="covariance_eigh")
    check_pca(scflux.to_anndata(adata))
    assert sha256(COUNTS) == before, "nothing written until write_h5ad"


def test_qc_read_at_once_is_scanpys(adata):
    scflux.pp.calculate_qc_metrics(adata, qc_vars={"mt": "MT-"}, inplace=True, **QC_CALL)
    check_qc(adata.obs, adata.var, exact_columns=False)  # read before any pass: QC's own pass runs then


def test_a_second_pass_reads_the_cache(engine, tmp_path):
    """A gzip-compressed input: the blocks the first pass decoded serve the next ones (the cache's misses do not
    grow)."""
    path = tmp_path / "gzip.h5ad"
    anndata.read_h5ad(COUNTS).write_h5ad(path, compression="gzip")
    stats = lambda: json.loads(str(engine.cacheStats()))  # noqa: E731
    before = stats()
    adata = lognormalized(scflux.read_h5ad(path))  # normalize_total's pass decodes each block once
    first = stats()
    read = first["misses"] - before["misses"]
    scflux.pp.highly_variable_genes(adata, flavor="seurat", n_top_genes=500)
    scflux.pp.pca(adata, n_comps=10)
    second = stats()
    assert read > 0 and second["misses"] == first["misses"], (before, first, second)
    assert second["hits"] - first["hits"] >= 2 * read, "HVG's and PCA's passes read the cache"
    check_hvg(adata.var, "hvg_seurat")


def test_returning_calls_leave_the_container(adata):
    obs, var = scflux.pp.calculate_qc_metrics(adata, qc_vars={"mt": "MT-"}, **QC_CALL)
    check_qc(obs, var)
    assert "total_counts" not in adata.obs and "mt" not in adata.var, "inplace=False changes nothing"
    result = scflux.pp.normalize_total(adata, target_sum=1e4, inplace=False)
    totals = np.asarray(counts_matrix().sum(axis=1)).ravel()
    assert_close(result["norm_factor"], totals / 1e4, 1e-6, "norm_factor")
    assert isinstance(result["X"], scflux.XView) and "log1p" not in adata.uns
    copy = scflux.pp.log1p(adata, copy=True)
    assert "log1p" in copy.uns and "log1p" not in adata.uns


def test_filters_match_scanpy(adata):
    scflux.pp.filter_cells(adata, min_counts=359)
    scflux.pp.filter_cells(adata, min_genes=220)
    scflux.pp.filter_genes(adata, min_cells=52)
    check_against_scanpy(adata.to_memory())


def test_filter_returning_the_mask(adata):
    cells, counts = scflux.pp.filter_cells(adata, min_genes=220, inplace=False)
    genes = np.diff(counts_matrix().indptr)
    np.testing.assert_array_equal(counts, genes)
    np.testing.assert_array_equal(cells, genes >= 220)
    assert adata.n_obs == 3000


def test_selection_is_lazy_and_keeps_the_statistics(adata):
    lognormalized(adata)
    full = adata.X.to_memory()
    adata.obs["keep"] = np.arange(adata.n_obs) % 3 == 0
    genes = list(adata.var_names[::7])
    sub = adata[adata.obs["keep"], genes]
    assert sub.shape == (1000, len(genes)) and "normalized" in repr(sub.X)
    rows, cols = np.flatnonzero(adata.obs["keep"].to_numpy()), adata.var_names.get_indexer(genes)
    # a subset of the view keeps the totals it was normalized with: the same values as the full matrix's subset
    assert (sub.X.to_memory() != full[rows][:, cols]).nnz == 0
    assert list(sub.obs_names) == list(adata.obs_names[rows])
    pd.testing.assert_frame_equal(sub.var, adata.var.iloc[cols])
    copy = sub.copy()
    copy.obs["new"] = 1
    assert "new" not in sub.obs, "a copy's columns are its own"


def test_steps_run_on_a_selection(adata):
    """QC on a lazy selection: the selected cells' totals over the selected genes, as numpy sums them."""
    rows, genes = np.arange(0, adata.n_obs, 2), list(adata.var_names[:500])
    sub = adata[rows, genes]
    scflux.pp.calculate_qc_metrics(sub, percent_top=None, inplace=True)
    cols = adata.var_names.get_indexer(genes)
    expected = np.asarray(counts_matrix()[rows][:, cols].sum(axis=1)).ravel()
    assert_close(sub.obs["total_counts"], expected, 0, "totals of the selection")
    assert "total_counts" not in adata.obs, "the container selected from is as it was"


def test_pca_on_a_mask_set_in_pandas(adata):
    lognormalized(adata)
    adata.var["my_genes"] = np.arange(adata.n_vars) < 300
    scflux.pp.pca(adata, n_comps=5, mask_var="my_genes")
    pcs = np.asarray(adata.varm["PCs"])
    assert np.all(pcs[300:] == 0) and np.all(np.abs(pcs[:300]).sum(axis=0) > 0), "loadings on the mask's genes only"


def test_layers_and_raw_keep_the_views(adata, tmp_path):
    adata.layers["counts"] = adata.X.copy()
    lognormalized(adata)
    adata.raw = adata
    scflux.pp.highly_variable_genes(adata, flavor="seurat", n_top_genes=500, subset=True)
    assert adata.n_vars == 500 and adata.raw.n_vars == 2000
    bulk = scflux.pp.pseudobulk(adata, "sample", "cell_type", layer="counts")
    assert bulk.n_vars == 500
    assert (adata.layers["counts"].to_memory() != counts_matrix()[:, adata.var_names.map(
        anndata.read_h5ad(COUNTS, backed="r").var_names.get_loc).to_numpy()].astype(np.float32)).nnz == 0
    out = tmp_path / "result.h5ad"
    adata.write_h5ad(out)
    assert leftovers(tmp_path) == []
    back = anndata.read_h5ad(out)
    assert back.shape == (3000, 500) and back.raw.shape == (3000, 2000)
    check_normalized(back.raw.X, "normalized_log1p", back.obs_names)
    np.testing.assert_array_equal(back.layers["counts"].toarray(), adata.layers["counts"].to_memory().toarray())
    assert list(back.var_names) == list(adata.var_names) and back.var["highly_variable"].all()


def test_pseudobulk_of_the_counts_layer_is_decouplers(adata):
    adata.layers["counts"] = adata.X
    lognormalized(adata)
    bulk = scflux.pp.pseudobulk(adata, "sample", "cell_type", layer="counts")
    check_pseudobulk(bulk.to_memory(), "sum")


def test_a_column_set_in_pandas_groups_the_markers(adata):
    lognormalized(adata)
    adata.obs["my_clusters"] = adata.obs["cell_type"].astype(str).astype("category")
    scflux.tl.rank_genes_groups(adata, "my_clusters", method="t-test")
    r = adata.uns["rank_genes_groups"]
    assert r["params"]["groupby"] == "my_clusters"
    ref = pd.read_csv(PYTHON.parent / "flux-ops" / "src" / "test" / "resources" / "expected" / "rgg_t-test.csv.gz")
    for group, expected in ref.groupby("group"):
        top = expected[expected["rank"] < 20]
        assert set(r["names"][group][:20]) == set(top["names"]), group


def test_markers_use_raw_as_scanpys_default(adata):
    """After ``adata.raw = adata`` and a subset to the highly variable genes, use_raw=None tests raw: every gene,
    as the reference (which ran on all the log-normalized genes)."""
    lognormalized(adata)
    adata.raw = adata
    scflux.pp.highly_variable_genes(adata, flavor="seurat", n_top_genes=500, subset=True)
    scflux.tl.rank_genes_groups(adata, "cell_type", method="t-test")
    names = adata.uns["rank_genes_groups"]["names"]
    ref = pd.read_csv(PYTHON.parent / "flux-ops" / "src" / "test" / "resources" / "expected" / "rgg_t-test.csv.gz")
    for group, expected in ref.groupby("group"):
        assert set(names[group][:20]) == set(expected[expected["rank"] < 20]["names"]), group
    assert len(names) == 2000, "one row per gene of raw"
    scflux.tl.rank_genes_groups(adata, "cell_type", method="t-test", use_raw=False)
    assert len(adata.uns["rank_genes_groups"]["names"]) == 500


def test_qc_of_raw_puts_its_cells_columns_at_once(adata):
    adata.raw = adata  # the counts
    lognormalized(adata)
    scflux.pp.calculate_qc_metrics(adata, use_raw=True, inplace=True, percent_top=None)
    assert_close(adata.obs["total_counts"], np.asarray(counts_matrix().sum(axis=1)).ravel(), 0, "raw's totals")


def test_write_h5ad_writes_once_and_refuses_its_input(adata, tmp_path):
    scflux.pp.calculate_qc_metrics(adata, qc_vars={"mt": "MT-"}, inplace=True, **QC_CALL)
    lognormalized(adata)
    scflux.pp.pca(adata, n_comps=10)
    out = tmp_path / "out.h5ad"
    adata.write_h5ad(out)
    back = anndata.read_h5ad(out)
    pd.testing.assert_frame_equal(back.obs, adata.obs)
    np.testing.assert_array_equal(back.obsm["X_pca"], adata.obsm["X_pca"])
    assert back.uns["log1p"] == {} or back.uns["log1p"].get("base") is None
    check_normalized(back.X, "normalized_log1p", back.obs_names)
    with pytest.raises(ValueError, match="synth-3k.int64.h5ad"):
        adata.write_h5ad(COUNTS)
    with pytest.raises(TypeError, match="write_h5ad"):  # out= is the path-based calls'; a container is written once
        scflux.pp.log1p(adata, out=tmp_path / "log.h5ad")
    assert leftovers(tmp_path) == [] and not (tmp_path / "log.h5ad").exists()


def test_errors_name_pythons_parameters(adata):
    with pytest.raises(KeyError, match="nope"):
        scflux.pp.calculate_qc_metrics(adata, qc_vars=["nope"])
    with pytest.raises(ValueError, match="percent_top"):
        scflux.pp.calculate_qc_metrics(adata, percent_top=[0])
    lognormalized(adata)
    scflux.pp.highly_variable_genes(adata, flavor="seurat", n_top_genes=500)
    with pytest.raises(ValueError, match="500") as e:
        scflux.pp.pca(adata, n_comps=600)
    assert "--" not in str(e.value)
    scflux.pp.pca(adata, n_comps=5)  # the container is still usable
    assert adata.obsm["X_pca"].shape == (3000, 5)


def test_ctrl_c_cancels_the_pass_and_keeps_the_container(engine, tmp_path):
    """SIGINT during a pass (as Jupyter's "interrupt kernel" sends) raises KeyboardInterrupt within a slice; the
    container is as before and the next step runs."""
    script = textwrap.dedent(f"""
        import os, signal, sys, threading, time
        # Ctrl-C as a notebook's kernel gets it, even when this test runs where SIGINT is ignored (a background job)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.path.insert(0, {str(PYTHON)!r})
        import scflux
        a = scflux.read_h5ad({str(COUNTS)!r})
        scflux.settings.threads = 1
        scflux.pp.normalize_total(a, target_sum=1e4)
        scflux.pp.log1p(a)
        before = list(a.var.columns)
        threading.Timer(0.05, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            for _ in range(200):
                scflux.pp.highly_variable_genes(a, flavor="seurat", n_top_genes=500, inplace=False)
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted", list(a.var.columns) == before)
        scflux.pp.highly_variable_genes(a, flavor="seurat", n_top_genes=500)
        print("after", int(a.var["highly_variable"].sum()))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["interrupted True", "after 500"], done.stdout + done.stderr
