"""normalize_total and log1p against scanpy (normalized_log1p: ``normalize_total(target_sum=1e4); log1p``;
normalized_median: ``normalize_total(target_sum=None)``), and their options against numpy computations of
scanpy's formulas."""

import shutil

import anndata
import numpy as np
import pytest
import scipy.sparse as sp

import scflux
from conftest import COUNTS, MODES, assert_close, counts_matrix, leftovers, run_step, sha256
from references import check_normalized

MEDIAN_TOTAL = 858.0  # the reference README: median of the nonzero cell totals of synth-3k


def normalize_then_log1p(path, out=None):
    scflux.pp.normalize_total(path, target_sum=1e4, out=out)
    scflux.pp.log1p(path if out is None else out)


@pytest.mark.parametrize("mode", MODES)
def test_normalize_total_then_log1p_match_scanpy(jar, tmp_path, mode):
    if mode == "out":
        before = sha256(COUNTS)
        scflux.pp.normalize_total(COUNTS, target_sum=1e4, out=tmp_path / "normalized.h5ad")
        scflux.pp.log1p(tmp_path / "normalized.h5ad", out=tmp_path / "lognorm.h5ad")
        assert sha256(COUNTS) == before
        result = anndata.read_h5ad(tmp_path / "lognorm.h5ad")
    else:
        work = tmp_path / "work.h5ad"
        shutil.copyfile(COUNTS, work)
        assert scflux.pp.normalize_total(work, target_sum=1e4) is None
        assert scflux.pp.log1p(work) is None
        assert leftovers(tmp_path) == []
        result = anndata.read_h5ad(work)
    check_normalized(result.X, "normalized_log1p", result.obs_names)
    assert "log1p" in result.uns


@pytest.mark.parametrize("mode", MODES)
def test_normalize_total_to_the_median_matches_scanpy(jar, tmp_path, mode):
    result = run_step(scflux.pp.normalize_total, COUNTS, mode, tmp_path)
    check_normalized(result.X, "normalized_median", result.obs_names)


def test_inplace_false_returns_x_and_norm_factor(jar, tmp_path):
    work = tmp_path / "counts.h5ad"
    shutil.copyfile(COUNTS, work)
    before = sha256(work)
    result = scflux.pp.normalize_total(work, inplace=False)
    assert set(result) == {"X", "norm_factor"}
    assert sp.isspmatrix_csr(result["X"])
    a = anndata.read_h5ad(COUNTS, backed="r")
    check_normalized(result["X"], "normalized_median", a.obs_names)
    totals = np.asarray(counts_matrix().sum(axis=1)).ravel()
    assert isinstance(result["norm_factor"], np.ndarray)
    assert_close(result["norm_factor"], totals / MEDIAN_TOTAL, 1e-6, "norm_factor = total / target_sum")
    assert sha256(work) == before
    assert leftovers(tmp_path) == []


def test_key_added_holds_each_cells_factor(jar, tmp_path):
    scflux.pp.normalize_total(COUNTS, target_sum=1e4, key_added="norm", out=tmp_path / "n.h5ad")
    obs = anndata.read_h5ad(tmp_path / "n.h5ad", backed="r").obs
    totals = np.asarray(counts_matrix().sum(axis=1)).ravel()
    assert_close(obs["norm"], totals / 1e4, 1e-6, "obs[key_added]")


def test_copy_returns_an_anndata_in_memory_and_leaves_the_file(jar, tmp_path):
    work = tmp_path / "counts.h5ad"
    shutil.copyfile(COUNTS, work)
    before = sha256(work)
    result = scflux.pp.normalize_total(work, target_sum=1e4, copy=True)
    assert isinstance(result, anndata.AnnData) and not result.isbacked
    assert result.shape == (3000, 2000)
    totals = np.asarray(result.X.astype(np.float64).sum(axis=1)).ravel()
    assert_close(totals, np.full(3000, 1e4), 1e-5, "every cell sums to target_sum")
    assert sha256(work) == before
    assert leftovers(tmp_path) == []


def test_copy_with_out_returns_the_out_file_backed(jar, tmp_path):
    out = tmp_path / "n.h5ad"
    result = scflux.pp.normalize_total(COUNTS, target_sum=1e4, copy=True, out=out)
    assert result.isbacked and result.filename == out
    assert result.shape == (3000, 2000)


def test_exclude_highly_expressed_as_scanpy(jar, tmp_path):
    x = counts_matrix()
    totals = np.asarray(x.sum(axis=1)).ravel()
    # scanpy: genes above max_fraction of some cell's total are left out of every cell's total
    high = np.asarray((x > sp.diags(totals * 0.05) @ (x > 0)).sum(axis=0)).ravel() > 0
    kept = np.asarray(x[:, ~high].sum(axis=1)).ravel()
    target = np.median(kept[kept > 0])
    expected = sp.diags(target / kept) @ x
    scflux.pp.normalize_total(COUNTS, exclude_highly_expressed=True, max_fraction=0.05, out=tmp_path / "n.h5ad")
    got = anndata.read_h5ad(tmp_path / "n.h5ad").X
    assert high.sum() > 0, "the fixture has highly expressed genes"
    assert_close(sp.csr_matrix(got).toarray(), expected.toarray(), 1e-6, "normalized values")


def test_log1p_base(jar, tmp_path):
    scflux.pp.log1p(COUNTS, base=2, out=tmp_path / "l.h5ad")
    got = sp.csr_matrix(anndata.read_h5ad(tmp_path / "l.h5ad").X)
    x = counts_matrix()
    assert_close(got.data, np.log1p(x.data) / np.log(2), 1e-6, "log2(1 + x)")
    np.testing.assert_array_equal(got.indices, x.indices)


def test_zero_count_cells_warn_as_scanpy(jar, tmp_path):
    a = anndata.read_h5ad(COUNTS)[:300].copy()
    x = sp.csr_matrix(a.X)
    x.data[:x.indptr[3]] = 0  # the first three cells without counts
    x.eliminate_zeros()
    a.X = x
    a.write_h5ad(tmp_path / "empty-cells.h5ad")
    with pytest.warns(UserWarning, match="Some cells have zero counts"):
        scflux.pp.normalize_total(tmp_path / "empty-cells.h5ad", out=tmp_path / "n.h5ad")


def test_log1p_of_logged_data_warns_as_scanpy(jar, lognorm, tmp_path):
    with pytest.warns(UserWarning, match="already log-transformed"):
        scflux.pp.log1p(lognorm, out=tmp_path / "twice.h5ad")


@pytest.mark.parametrize("call, error, match", [
    (lambda: scflux.pp.normalize_total(COUNTS, copy=True, inplace=False), ValueError, "copy"),
    (lambda: scflux.pp.normalize_total(COUNTS, layer="counts"), KeyError, "layer 'counts' is not in layers"),
    (lambda: scflux.pp.normalize_total(COUNTS, exclude_highly_expressed=True, max_fraction=2), ValueError,
     "max_fraction"),
    (lambda: scflux.pp.log1p(COUNTS, chunked=True), NotImplementedError, "chunked"),
    (lambda: scflux.pp.log1p(COUNTS, layer="counts"), KeyError, "layer 'counts' is not in layers"),
    (lambda: scflux.pp.log1p(COUNTS, obsm="X_pca"), NotImplementedError, "obsm"),
    (lambda: scflux.pp.log1p(COUNTS, base=1), ValueError, "base"),
], ids=["copy-not-inplace", "normalize-layer", "max-fraction", "chunked", "log1p-layer", "obsm", "base-1"])
def test_parameters_are_checked(call, error, match):
    with pytest.raises(error, match=match):
        call()
