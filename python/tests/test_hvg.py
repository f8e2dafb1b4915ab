"""highly_variable_genes against scanpy's hvg_* references (``n_top_genes=500``; seurat and cell_ranger on
``normalize_total(target_sum=1e4); log1p``, seurat_v3 on the counts), over flavor x where the result goes."""

import shutil
import warnings

import anndata
import numpy as np
import pandas as pd
import pytest

import scflux
from conftest import COUNTS, expected_csv, leftovers
from references import check_hvg

CASES = {  # reference -> (input, call)
    "hvg_seurat": ("lognorm", dict(flavor="seurat")),
    "hvg_cell_ranger": ("lognorm", dict(flavor="cell_ranger")),
    "hvg_seurat_v3": ("counts", dict(flavor="seurat_v3")),
    "hvg_seurat_batch": ("lognorm", dict(flavor="seurat", batch_key="sample")),
}


@pytest.fixture
def inputs(request, tmp_path):
    def path(kind):
        return COUNTS if kind == "counts" else request.getfixturevalue("lognorm")
    return path


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("mode", ["return", "out", "in_place"])
def test_matches_scanpy(jar, inputs, tmp_path, name, mode):
    kind, call = CASES[name]
    source = inputs(kind)
    if mode == "return":
        var = scflux.pp.highly_variable_genes(source, n_top_genes=500, inplace=False, **call)
        assert isinstance(var, pd.DataFrame)
        assert set(var.columns) == set(expected_csv(name).columns), "exactly the columns scanpy returns"
    elif mode == "out":
        assert scflux.pp.highly_variable_genes(source, n_top_genes=500, out=tmp_path / "hvg.h5ad", **call) is None
        var = anndata.read_h5ad(tmp_path / "hvg.h5ad", backed="r").var
    else:
        work = tmp_path / "work.h5ad"
        shutil.copyfile(source, work)
        assert scflux.pp.highly_variable_genes(work, n_top_genes=500, **call) is None
        var = anndata.read_h5ad(work, backed="r").var
    assert leftovers(tmp_path) == []
    check_hvg(var, name)


def test_cutoffs_select_as_scanpy(jar, lognorm, tmp_path):
    """Without n_top_genes scanpy keeps min_mean < mean < max_mean and min_disp < dispersions_norm < max_disp;
    the means and normalized dispersions do not depend on the cut-offs, so the reference's columns give the
    expected selection."""
    ref = expected_csv("hvg_seurat")
    cutoffs = dict(min_mean=0.1, max_mean=2.5, min_disp=0.2, max_disp=3.0)
    scflux.pp.highly_variable_genes(lognorm, flavor="seurat", out=tmp_path / "hvg.h5ad", **cutoffs)
    var = anndata.read_h5ad(tmp_path / "hvg.h5ad", backed="r").var
    d = ref["dispersions_norm"].fillna(-np.inf)
    expected = (ref["means"] > 0.1) & (ref["means"] < 2.5) & (d > 0.2) & (d < 3.0)
    assert 0 < expected.sum() < len(ref)
    np.testing.assert_array_equal(var["highly_variable"].to_numpy(), expected.to_numpy())


def test_subset_keeps_the_highly_variable_genes(jar, lognorm, tmp_path):
    scflux.pp.highly_variable_genes(lognorm, n_top_genes=500, subset=True, out=tmp_path / "hvg.h5ad")
    result = anndata.read_h5ad(tmp_path / "hvg.h5ad")
    ref = expected_csv("hvg_seurat")
    assert list(result.var_names) == list(ref.index[ref["highly_variable"].to_numpy().astype(bool)])
    assert result.shape == (3000, 500)


def test_subset_with_inplace_false_returns_only_those_genes(jar, lognorm):
    var = scflux.pp.highly_variable_genes(lognorm, n_top_genes=500, subset=True, inplace=False)
    ref = expected_csv("hvg_seurat")
    assert list(var.index) == list(ref.index[ref["highly_variable"].to_numpy().astype(bool)])


def test_check_values_decides_the_non_integer_warning(jar, lognorm, tmp_path):
    with pytest.warns(UserWarning, match="integer"):
        scflux.pp.highly_variable_genes(lognorm, flavor="seurat_v3", n_top_genes=100, out=tmp_path / "a.h5ad")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        scflux.pp.highly_variable_genes(lognorm, flavor="seurat_v3", n_top_genes=100, check_values=False,
                                        out=tmp_path / "b.h5ad")
    assert not [w for w in record if "integer" in str(w.message)]


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(batch_key="nope"), KeyError, "nope"),
    (dict(layer="counts"), KeyError, "layer 'counts' is not in layers"),
    (dict(flavor="seurat_v3_paper"), NotImplementedError, "flavor"),
    (dict(flavor="pearson"), ValueError, "flavor"),
    (dict(n_top_genes=0), ValueError, "n_top_genes"),
])
def test_parameters_are_checked(kwargs, error, match):
    with pytest.raises(error, match=match):
        scflux.pp.highly_variable_genes(COUNTS, **kwargs)
