"""calculate_qc_metrics against scanpy's (qc_obs / qc_var: ``qc_vars=["mt"]`` of the MT- genes,
``percent_top=(50, 100, 200)``, ``log1p=True``)."""

import anndata
import numpy as np
import pytest

import scflux
from conftest import COUNTS, MODES, assert_close, expected_csv, leftovers, run_step, sha256
from references import QC_OBS_DTYPES, check_qc

REFERENCE_CALL = dict(percent_top=(50, 100, 200))


@pytest.mark.parametrize("mode", MODES)
def test_writes_scanpy_columns_with_a_prefix_qc_var(jar, tmp_path, mode):
    result = run_step(scflux.pp.calculate_qc_metrics, COUNTS, mode, tmp_path, qc_vars={"mt": "MT-"},
                      inplace=True, **REFERENCE_CALL)
    check_qc(result.obs, result.var, exact_columns=False)
    assert result.var["mt"].dtype == bool
    np.testing.assert_array_equal(result.var["mt"].to_numpy(), expected_csv("qc_var")["mt"].to_numpy())
    assert result.var["mt"].sum() == 13


def test_returns_scanpy_frames_without_changing_the_file(jar, tmp_path):
    work = tmp_path / "counts.h5ad"
    work.write_bytes(COUNTS.read_bytes())
    before = sha256(work)
    obs, var = scflux.pp.calculate_qc_metrics(work, qc_vars={"mt": "MT-"}, **REFERENCE_CALL)  # inplace=False
    check_qc(obs, var)
    assert sha256(work) == before
    assert leftovers(tmp_path) == []


def test_returns_frames_and_writes_out(jar, tmp_path):
    out = tmp_path / "qc.h5ad"
    obs, var = scflux.pp.calculate_qc_metrics(COUNTS, qc_vars={"mt": "MT-"}, inplace=False, out=out,
                                              **REFERENCE_CALL)
    check_qc(obs, var)
    written = anndata.read_h5ad(out, backed="r")
    check_qc(written.obs, written.var, exact_columns=False)


@pytest.fixture
def with_mt_column(tmp_path):
    """The counts with scanpy's way of naming the qc variable: a bool var column ``mt`` made by the user."""
    a = anndata.read_h5ad(COUNTS)
    a.var["mt"] = a.var_names.str.startswith("MT-")
    path = tmp_path / "with_mt.h5ad"
    a.write_h5ad(path)
    return path


@pytest.mark.parametrize("qc_vars", [["mt"], "mt"], ids=["list", "str"])
def test_existing_bool_column_as_qc_var(jar, tmp_path, with_mt_column, qc_vars):
    obs, var = scflux.pp.calculate_qc_metrics(with_mt_column, qc_vars=qc_vars, out=tmp_path / "qc.h5ad",
                                              **REFERENCE_CALL)
    check_qc(obs, var)


def test_missing_qc_var_column_is_a_key_error(tmp_path, with_mt_column):
    with pytest.raises(KeyError, match="nope"):
        scflux.pp.calculate_qc_metrics(with_mt_column, qc_vars=["nope"])


def test_without_log1p_has_no_log1p_columns(jar, tmp_path):
    obs, var = scflux.pp.calculate_qc_metrics(COUNTS, qc_vars={"mt": "MT-"}, log1p=False,
                                              out=tmp_path / "qc.h5ad", **REFERENCE_CALL)
    check_qc(obs, var, log1p=False)
    written = anndata.read_h5ad(tmp_path / "qc.h5ad", backed="r")
    assert not [c for c in list(written.obs.columns) + list(written.var.columns) if c.startswith("log1p_")]


def test_default_percent_top_is_scanpys(jar, tmp_path):
    obs, _ = scflux.pp.calculate_qc_metrics(COUNTS, out=tmp_path / "qc.h5ad")
    assert [c for c in obs.columns if c.startswith("pct_counts_in_top")] == [
        f"pct_counts_in_top_{n}_genes" for n in (50, 100, 200, 500)]
    assert_close(obs["pct_counts_in_top_50_genes"], expected_csv("qc_obs")["pct_counts_in_top_50_genes"], 1e-6,
                 "top 50")
    # top 500: the share of each cell's counts in its 500 largest entries, computed here with numpy
    a = anndata.read_h5ad(COUNTS)
    x = a.X.tocsr()
    top = np.array([np.sort(x.data[x.indptr[i]:x.indptr[i + 1]].astype(np.float64))[::-1][:500].sum()
                    for i in range(x.shape[0])])
    assert_close(obs["pct_counts_in_top_500_genes"], top / np.asarray(x.sum(axis=1)).ravel() * 100, 1e-6, "top 500")


@pytest.mark.parametrize("percent_top", [None, ()], ids=["None", "empty"])
def test_no_percent_top_means_no_top_columns(jar, tmp_path, percent_top):
    obs, var = scflux.pp.calculate_qc_metrics(COUNTS, qc_vars={"mt": "MT-"}, percent_top=percent_top)
    assert not [c for c in obs.columns if c.startswith("pct_counts_in_top")]
    ref = expected_csv("qc_obs")
    for c in obs.columns:
        assert_close(obs[c], ref[c], 1e-6, c)
    assert list(obs.columns) == [c for c in QC_OBS_DTYPES if not c.startswith("pct_counts_in_top")]


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(layer="counts"), KeyError, "layer 'counts' is not in layers"),
    (dict(use_raw=True), ValueError, "adata.raw` is empty"),
])
def test_a_layer_or_raw_the_file_lacks_is_scanpys_error(kwargs, error, match):
    with pytest.raises(error, match=match):
        scflux.pp.calculate_qc_metrics(COUNTS, **kwargs)


@pytest.mark.parametrize("kwargs, name", [
    (dict(expr_type="umis"), "expr_type"),
    (dict(var_type="features"), "var_type"),
])
def test_unsupported_values_raise_not_implemented(kwargs, name):
    with pytest.raises(NotImplementedError, match=name):
        scflux.pp.calculate_qc_metrics(COUNTS, **kwargs)


def test_parallel_is_deprecated_as_in_scanpy(jar, tmp_path):
    with pytest.warns(FutureWarning, match="parallel"):
        scflux.pp.calculate_qc_metrics(COUNTS, parallel=True, percent_top=(50,), out=tmp_path / "qc.h5ad")
