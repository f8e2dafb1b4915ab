"""What ``data``, ``inplace``/``copy`` and ``out`` mean for the file of a path-based call: atomic in-place rewrites
that leave nothing behind, ``out=`` leaving the input byte-identical, a backed AnnData that shows the rewritten file,
and what is refused before the engine opens the file."""

import os
import shutil
import subprocess

import anndata
import numpy as np
import pytest
import scipy.sparse as sp

import scflux
from conftest import COUNTS, assert_close, counts_matrix, leftovers, sha256


@pytest.fixture
def work(tmp_path):
    path = tmp_path / "work.h5ad"
    shutil.copyfile(COUNTS, path)
    return path


def test_in_place_replaces_the_input_and_leaves_no_temporary_file(jar, work):
    before = sha256(work)
    assert scflux.pp.log1p(work) is None
    assert sha256(work) != before
    assert leftovers(work.parent) == []
    assert "log1p" in anndata.read_h5ad(work, backed="r").uns


def test_out_leaves_the_input_byte_identical(jar, work, tmp_path):
    before = sha256(work)
    scflux.pp.log1p(work, out=tmp_path / "out.h5ad")
    assert sha256(work) == before
    assert (tmp_path / "out.h5ad").exists()
    assert leftovers(tmp_path) == []


def test_out_naming_the_input_is_an_in_place_rewrite(jar, work):
    scflux.pp.log1p(work, out=str(work))
    assert "log1p" in anndata.read_h5ad(work, backed="r").uns
    assert leftovers(work.parent) == []


def test_a_backed_anndata_shows_the_rewritten_file(jar, work):
    adata = anndata.read_h5ad(work, backed="r")
    totals = np.asarray(counts_matrix().sum(axis=1)).ravel()
    kept = int((totals >= 359).sum())

    assert scflux.pp.filter_cells(adata, min_counts=359) is None
    assert adata.isbacked and adata.file.is_open and adata.filename == work
    assert adata.file._filemode == "r"
    assert adata.shape == (kept, 2000)
    assert (adata.obs["n_counts"] >= 359).all()
    assert adata.X[:5].shape == (5, 2000), "X readable from the new file"

    scflux.pp.calculate_qc_metrics(adata, qc_vars={"mt": "MT-"}, percent_top=(50,), inplace=True)
    assert "pct_counts_mt" in adata.obs and "mt" in adata.var
    np.testing.assert_array_equal(adata.obs["total_counts"].to_numpy(), totals[totals >= 359])

    scflux.pp.pca(adata, n_comps=5)
    assert adata.obsm["X_pca"].shape == (kept, 5)
    assert "pca" in adata.uns and adata.varm["PCs"].shape == (2000, 5)
    assert leftovers(work.parent) == []


def test_a_backed_anndata_opened_read_write_comes_back_read_only(jar, work):
    adata = anndata.read_h5ad(work, backed="r+")
    scflux.pp.log1p(adata)
    assert adata.file._filemode == "r" and "log1p" in adata.uns


def test_a_failed_in_place_run_leaves_the_file_and_the_backed_anndata(jar, work):
    adata = anndata.read_h5ad(work, backed="r")
    before = sha256(work)
    with pytest.raises(ValueError):
        scflux.pp.calculate_qc_metrics(adata, percent_top=(5000,), inplace=True)  # more ranks than genes
    assert sha256(work) == before
    assert adata.isbacked and adata.file.is_open and adata.shape == (3000, 2000)
    assert leftovers(work.parent) == []


def test_a_backed_anndata_with_out_stays_on_its_file(jar, work, tmp_path):
    adata = anndata.read_h5ad(work, backed="r")
    scflux.pp.log1p(adata, out=tmp_path / "out.h5ad")
    assert adata.isbacked and adata.file.is_open and adata.filename == work and "log1p" not in adata.uns


CALLS = {
    "calculate_qc_metrics": lambda p: scflux.pp.calculate_qc_metrics(p),
    "normalize_total": lambda p: scflux.pp.normalize_total(p),
    "log1p": lambda p: scflux.pp.log1p(p),
    "highly_variable_genes": lambda p: scflux.pp.highly_variable_genes(p),
    "pca": lambda p: scflux.pp.pca(p),
    "scale": lambda p: scflux.pp.scale(p),
    "filter_cells": lambda p: scflux.pp.filter_cells(p, min_genes=1),
    "filter_genes": lambda p: scflux.pp.filter_genes(p, min_cells=1),
    "pseudobulk": lambda p: scflux.pp.pseudobulk(p, "sample", "cell_type"),
    "concat": lambda p: scflux.concat([COUNTS, p]),
    "read_10x_h5": lambda p: scflux.read_10x_h5(p),
}


@pytest.mark.parametrize("name", CALLS)
def test_a_missing_input_is_a_file_not_found_error(tmp_path, name):
    with pytest.raises(FileNotFoundError, match="missing.h5ad"):
        CALLS[name](tmp_path / "missing.h5ad")


def test_an_in_memory_anndata_is_refused():
    with pytest.raises(TypeError, match="in memory"):
        scflux.pp.log1p(anndata.read_h5ad(COUNTS))


def test_a_view_is_refused():
    with pytest.raises(TypeError, match="view"):
        scflux.pp.log1p(anndata.read_h5ad(COUNTS, backed="r")[:10])


def test_an_anndata_0_6_file_is_one_clear_error_naming_it():
    legacy = COUNTS.parent / "legacy-06.h5ad"  # obs is a compound dataset with the field louvain
    with pytest.raises(ValueError, match=r"legacy-06.h5ad: /obs: unsupported legacy layout"):
        scflux.pp.pseudobulk(legacy, "louvain", "donor")


def test_a_path_based_call_is_the_containers_call_written(jar, work, tmp_path):
    """layer= (which the command line's steps never took) works on a file as on the container it opens."""
    adata = scflux.read_h5ad(work)
    adata.layers["counts"] = adata.X
    adata.write_h5ad(tmp_path / "layered.h5ad")
    scflux.pp.normalize_total(tmp_path / "layered.h5ad", target_sum=1e4, layer="counts")
    on_file = anndata.read_h5ad(tmp_path / "layered.h5ad")
    counts = counts_matrix()
    expected = sp.diags(1e4 / np.asarray(counts.sum(axis=1)).ravel()) @ counts
    assert_close(on_file.layers["counts"].toarray(), expected.toarray(), 1e-6, "the normalized layer")
    assert (on_file.X != counts).nnz == 0, "X stays the counts"
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------------------- what a killed call leaves

def _temporary_name(target: str, pid: int, random: int) -> str:
    """Java's TemporaryName rule, spelled here: ``.<target>.scflux-<pid>-<hex>.tmp``."""
    return f".{target}.scflux-{pid}-{random:x}.tmp"


def _dead_pid() -> int:
    gone = subprocess.Popen(["true"])
    gone.wait()
    return gone.pid


def test_the_next_write_in_the_folder_removes_what_a_killed_python_call_left(jar, work, tmp_path):
    stale = tmp_path / _temporary_name(work.name, _dead_pid(), 0x1F2E)
    stale.write_bytes(b"the result a killed call was reading")
    live = tmp_path / _temporary_name(work.name, os.getpid(), 0x3C4D)
    live.write_bytes(b"a live call's")
    scflux.pp.log1p(work, out=tmp_path / "out.h5ad")
    assert not stale.exists(), "a killed call's temporary file is removed by the next write in its folder"
    assert live.exists(), "a live one's is kept"
    live.unlink()
    assert leftovers(tmp_path) == []


def test_a_250_byte_name_is_written_and_read_back_through_a_temporary_file(jar, tmp_path):
    """The engine's temporary name fits in 255 bytes: a 250-byte input returns its copy, and a 250-byte out= is
    written."""
    long_input = tmp_path / ("i" * 245 + ".h5ad")
    shutil.copyfile(COUNTS, long_input)
    result = scflux.pp.log1p(long_input, copy=True)
    assert result.shape == (3000, 2000) and "log1p" in result.uns
    long_out = tmp_path / ("o" * 245 + ".h5ad")
    scflux.pp.log1p(long_input, out=long_out)
    assert long_out.exists()
    assert leftovers(tmp_path) == []


# ------------------------------------------------------------------------- out= naming the input of a returning call

RETURNING = {
    "log1p(copy=True)": lambda p, out: scflux.pp.log1p(p, copy=True, out=out),
    "normalize_total(copy=True)": lambda p, out: scflux.pp.normalize_total(p, copy=True, out=out),
    "normalize_total(inplace=False)": lambda p, out: scflux.pp.normalize_total(p, inplace=False, out=out),
    "calculate_qc_metrics(inplace=False)": lambda p, out: scflux.pp.calculate_qc_metrics(p, out=out),
    "filter_cells(inplace=False)": lambda p, out: scflux.pp.filter_cells(p, min_genes=1, inplace=False, out=out),
    "filter_genes(copy=True)": lambda p, out: scflux.pp.filter_genes(p, min_cells=1, copy=True, out=out),
    "pca(copy=True)": lambda p, out: scflux.pp.pca(p, copy=True, out=out),
    "scale(copy=True)": lambda p, out: scflux.pp.scale(p, copy=True, out=out),
    "pseudobulk": lambda p, out: scflux.pp.pseudobulk(p, "sample", "cell_type", out=out),
}


@pytest.mark.parametrize("spelling", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("name", RETURNING)
def test_out_naming_the_input_of_a_call_that_returns_its_result_is_refused(work, tmp_path, name, spelling):
    out = {"same": lambda: work, "symlink": lambda: _link(tmp_path / "link.h5ad", work, os.symlink),
           "hardlink": lambda: _link(tmp_path / "hard.h5ad", work, os.link)}[spelling]()
    before = sha256(work)
    with pytest.raises(ValueError, match="is the input .*work.h5ad, which this call leaves unchanged"):
        RETURNING[name](work, out)
    assert sha256(work) == before


def _link(link, target, make):
    make(target, link)
    return link
