"""filter_cells and filter_genes against scanpy: ``filter_cells(a, min_counts=359); filter_cells(a, min_genes=220);
filter_genes(a, min_cells=52)`` on synth-3k leaves 2833 cells x 1801 genes (filter_obs / filter_var), and the
``inplace=False`` results against numpy's counts."""

import shutil

import anndata
import numpy as np
import pytest

import scflux
from conftest import COUNTS, assert_close, counts_matrix, expected_csv, leftovers, sha256


def reference_chain(path, **out):
    scflux.pp.filter_cells(path, min_counts=359, **out)
    path = out.get("out", path)
    scflux.pp.filter_cells(path, min_genes=220)
    scflux.pp.filter_genes(path, min_cells=52)
    return path


def check_against_scanpy(result: anndata.AnnData) -> None:
    obs, var = expected_csv("filter_obs"), expected_csv("filter_var")
    assert result.shape == (2833, 1801)
    assert list(result.obs_names) == list(obs.index)
    assert list(result.var_names) == list(var.index)
    assert result.obs["n_counts"].dtype == np.float32, "X's sum type"
    assert result.obs["n_genes"].dtype == np.int64
    assert result.var["n_cells"].dtype == np.int64
    assert_close(result.obs["n_counts"], obs["n_counts"], 0, "n_counts")
    np.testing.assert_array_equal(result.obs["n_genes"].to_numpy(), obs["n_genes"].to_numpy())
    np.testing.assert_array_equal(result.var["n_cells"].to_numpy(), var["n_cells"].to_numpy())
    # the matrix is the counts' submatrix
    counts = anndata.read_h5ad(COUNTS)
    sub = counts[list(obs.index), list(var.index)].X
    np.testing.assert_array_equal(result.X.toarray(), sub.toarray())


@pytest.mark.parametrize("mode", ["in_place", "out"])
def test_filters_match_scanpy(jar, tmp_path, mode):
    if mode == "in_place":
        work = tmp_path / "work.h5ad"
        shutil.copyfile(COUNTS, work)
        result = reference_chain(work)
    else:
        before = sha256(COUNTS)
        result = reference_chain(COUNTS, out=tmp_path / "filtered.h5ad")
        assert sha256(COUNTS) == before
    assert leftovers(tmp_path) == []
    check_against_scanpy(anndata.read_h5ad(result))


def test_copy_returns_the_filtered_anndata(jar, tmp_path):
    work = tmp_path / "work.h5ad"
    shutil.copyfile(COUNTS, work)
    before = sha256(work)
    result = scflux.pp.filter_genes(work, min_cells=52, copy=True)
    assert isinstance(result, anndata.AnnData) and not result.isbacked
    cells = np.diff(counts_matrix().tocsc().indptr)
    assert list(result.var_names) == list(anndata.read_h5ad(COUNTS, backed="r").var_names[cells >= 52])
    np.testing.assert_array_equal(result.var["n_cells"].to_numpy(), cells[cells >= 52])
    assert sha256(work) == before


@pytest.mark.parametrize("function, kwargs, axis, number", [
    ("filter_cells", dict(min_counts=359), 1, "counts"),
    ("filter_cells", dict(max_counts=2000.5), 1, "counts"),
    ("filter_cells", dict(min_genes=220), 1, "nonzero"),
    ("filter_cells", dict(max_genes=500), 1, "nonzero"),
    ("filter_genes", dict(min_counts=100), 0, "counts"),
    ("filter_genes", dict(min_cells=52), 0, "nonzero"),
    ("filter_genes", dict(max_cells=300), 0, "nonzero"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_inplace_false_returns_mask_and_numbers_for_all(jar, tmp_path, function, kwargs, axis, number):
    work = tmp_path / "work.h5ad"
    shutil.copyfile(COUNTS, work)
    before = sha256(work)
    subset, numbers = getattr(scflux.pp, function)(work, inplace=False, **kwargs)
    x = counts_matrix()
    if number == "counts":
        expected = np.asarray(x.sum(axis=axis)).ravel()
        assert numbers.dtype == np.float32, "X's sum type"
    else:
        expected = np.asarray((x > 0).sum(axis=axis)).ravel()
        assert numbers.dtype == np.int64
    assert_close(numbers, expected, 0, "numbers")
    (name, value), = kwargs.items()
    assert subset.dtype == bool
    np.testing.assert_array_equal(subset, expected >= value if name.startswith("min") else expected <= value)
    assert 0 < subset.sum() < subset.size
    assert sha256(work) == before
    assert leftovers(tmp_path) == []


def test_inplace_false_with_out_writes_the_filtered_file(jar, tmp_path):
    subset, numbers = scflux.pp.filter_cells(COUNTS, min_counts=359, inplace=False, out=tmp_path / "f.h5ad")
    written = anndata.read_h5ad(tmp_path / "f.h5ad", backed="r")
    assert written.n_obs == subset.sum() and len(subset) == 3000
    assert_close(written.obs["n_counts"], numbers[subset], 0, "n_counts of the kept cells")


@pytest.mark.parametrize("function, kwargs, names", [
    ("filter_cells", dict(min_counts=10, min_genes=5), "`min_counts`, `min_genes`, `max_counts`, `max_genes`"),
    ("filter_cells", dict(), "`min_counts`, `min_genes`, `max_counts`, `max_genes`"),
    ("filter_genes", dict(min_cells=3, max_counts=10), "`min_counts`, `min_cells`, `max_counts`, `max_cells`"),
])
def test_one_criterion_per_call_as_scanpy(function, kwargs, names):
    message = f"Only provide one of the optional parameters {names} per call."
    with pytest.raises(ValueError) as e:
        getattr(scflux.pp, function)(COUNTS, **kwargs)
    assert str(e.value) == message
