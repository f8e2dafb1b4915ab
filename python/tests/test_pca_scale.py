"""pca and scale against scanpy: the reference ran ``pca(sub, n_comps=30, svd_solver="covariance_eigh")`` and
``scale(sub, max_value=10)`` on ``sub`` = the log-normalized counts restricted to the seurat highly variable genes
(pca.h5ad, pca_loadings, pca_variance, scaled.h5ad)."""

import shutil

import anndata
import numpy as np
import pytest
import scipy.sparse as sp

import scflux
from conftest import COUNTS, EXPECTED, MODES, assert_close, expected_csv, leftovers, run_step, sha256
from references import check_pca

REFERENCE_CALL = dict(n_comps=30, svd_solver="covariance_eigh")


@pytest.mark.parametrize("mode", MODES)
def test_highly_variable_genes_of_var_as_scanpy(jar, lognorm_hvg, tmp_path, mode):
    """scanpy's default mask_var: the genes of var["highly_variable"] when the column exists."""
    result = run_step(scflux.pp.pca, lognorm_hvg, mode, tmp_path, **REFERENCE_CALL)
    check_pca(result)
    assert result.uns["pca"]["params"]["zero_center"]


def test_all_genes_of_the_subset_as_scanpy(jar, lognorm_sub, tmp_path):
    result = run_step(scflux.pp.pca, lognorm_sub, "out", tmp_path, mask_var=None, **REFERENCE_CALL)
    check_pca(result)
    assert not result.uns["pca"]["params"]["use_highly_variable"]


def test_mask_var_names_a_bool_column(jar, lognorm_hvg, tmp_path):
    a = anndata.read_h5ad(lognorm_hvg)
    a.var["chosen"] = a.var["highly_variable"].to_numpy()
    a.var = a.var.drop(columns=["highly_variable"])
    a.write_h5ad(tmp_path / "masked.h5ad")
    result = run_step(scflux.pp.pca, tmp_path / "masked.h5ad", "out", tmp_path / "run", mask_var="chosen",
                      **REFERENCE_CALL)
    check_pca(result)


def test_use_highly_variable_is_deprecated_as_in_scanpy(jar, lognorm_hvg, tmp_path):
    with pytest.warns(FutureWarning, match="use_highly_variable"):
        scflux.pp.pca(lognorm_hvg, use_highly_variable=True, out=tmp_path / "pca.h5ad", **REFERENCE_CALL)
    check_pca(anndata.read_h5ad(tmp_path / "pca.h5ad"))


def test_randomized_solver_finds_the_leading_components(jar, lognorm_sub, tmp_path):
    result = run_step(scflux.pp.pca, lognorm_sub, "out", tmp_path, n_comps=30, svd_solver="randomized",
                      mask_var=None)
    variance = expected_csv("pca_variance")
    assert_close(result.uns["pca"]["variance"][:5], variance["variance"][:5], 1e-3, "leading variances")


def test_copy_returns_an_anndata_and_leaves_the_file(jar, lognorm_hvg, tmp_path):
    work = tmp_path / "hvg.h5ad"
    shutil.copyfile(lognorm_hvg, work)
    before = sha256(work)
    result = scflux.pp.pca(work, copy=True, **REFERENCE_CALL)
    assert isinstance(result, anndata.AnnData) and not result.isbacked
    check_pca(result)
    assert sha256(work) == before
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(zero_center=False), NotImplementedError, "zero_center"),
    (dict(svd_solver="lobpcg"), NotImplementedError, "svd_solver"),
    (dict(chunked=True), NotImplementedError, "chunked"),
    (dict(dtype="float64"), NotImplementedError, "dtype"),
    (dict(key_added="X_pca2"), NotImplementedError, "key_added"),
    (dict(layer="counts"), KeyError, "layer 'counts' is not in layers"),
    (dict(svd_solver="randomized", random_state=3), NotImplementedError, "random_state"),
    (dict(mask_var=np.ones(2000, dtype=bool)), NotImplementedError, "mask_var"),
    (dict(mask_var="highly_variable", use_highly_variable=True), ValueError, "not both"),
    (dict(mask_var="nope"), KeyError, "nope"),
    (dict(n_comps=0), ValueError, "n_comps"),
])
def test_pca_parameters_are_checked(kwargs, error, match):
    with pytest.raises(error, match=match):
        scflux.pp.pca(COUNTS, **kwargs)


# ------------------------------------------------------------------------------------------------------------ scale

@pytest.mark.parametrize("mode", MODES)
def test_scale_matches_scanpy(jar, lognorm_sub, tmp_path, mode):
    result = run_step(scflux.pp.scale, lognorm_sub, mode, tmp_path, max_value=10)
    ref = anndata.read_h5ad(EXPECTED / "scaled.h5ad")  # the first 500 cells
    assert isinstance(result.X, np.ndarray) and result.X.dtype == np.float64
    assert list(result.var_names) == list(ref.var_names)
    for c in ("mean", "std"):
        assert result.var[c].dtype == np.float64
        assert_close(result.var[c], ref.var[c], 1e-6, c)
    assert_close(result.X[:500], ref.X, 1e-6, "scaled values", atol=1e-6)
    assert result.X.max() == 10


def test_scale_without_centring_keeps_sparsity(jar, lognorm_sub, tmp_path):
    result = run_step(scflux.pp.scale, lognorm_sub, "out", tmp_path, zero_center=False)
    x = sp.csr_matrix(anndata.read_h5ad(lognorm_sub).X).astype(np.float64)
    mean = np.asarray(x.mean(axis=0)).ravel()
    std = np.sqrt((np.asarray(x.multiply(x).mean(axis=0)).ravel() - mean ** 2) * x.shape[0] / (x.shape[0] - 1))
    assert sp.issparse(result.X)
    assert_close(sp.csr_matrix(result.X).toarray(), (x @ sp.diags(1 / std)).toarray(), 1e-6, "x / std",
                 atol=1e-9)


def test_scale_copy_returns_an_anndata(jar, lognorm_sub, tmp_path):
    result = scflux.pp.scale(lognorm_sub, max_value=10, copy=True)
    assert isinstance(result, anndata.AnnData) and not result.isbacked
    assert_close(result.var["std"], anndata.read_h5ad(EXPECTED / "scaled.h5ad").var["std"], 1e-6, "std")


@pytest.mark.parametrize("kwargs, error, match", [(dict(layer="x"), KeyError, "layer 'x' is not in layers"),
                                                  (dict(obsm="X_pca"), NotImplementedError, "obsm"),
                                                  (dict(mask_obs="keep"), NotImplementedError, "mask_obs")])
def test_scale_parameters_are_checked(kwargs, error, match):
    with pytest.raises(error, match=match):
        scflux.pp.scale(COUNTS, **kwargs)
