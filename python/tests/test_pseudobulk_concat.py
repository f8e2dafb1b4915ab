"""pseudobulk against decoupler 2.1.1 (pseudobulk_sum / pseudobulk_mean: ``sample_col="sample",
groups_col="cell_type"``) and concat against anndata 0.12 (``ad.concat([a, b], join=..., label="batch",
keys=["a", "b"], index_unique="-")``, extracts concat_*)."""

import anndata
import pytest

import scflux
from conftest import COUNTS, COUNTS_B, leftovers, sha256
from references import check_concat, check_pseudobulk


# ------------------------------------------------------------------------------------------------------- pseudobulk


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_pseudobulk_matches_decoupler(jar, tmp_path, mode):
    result = scflux.pp.pseudobulk(COUNTS, sample_col="sample", groups_col="cell_type", mode=mode)
    assert isinstance(result, anndata.AnnData) and not result.isbacked
    check_pseudobulk(result, mode)


def test_pseudobulk_out_returns_the_file_backed(jar, tmp_path):
    out = tmp_path / "pb.h5ad"
    result = scflux.pp.pseudobulk(anndata.read_h5ad(COUNTS, backed="r"), "sample", "cell_type", out=out)
    assert result.isbacked and result.filename == out
    check_pseudobulk(result.to_memory(), "sum")


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(sample_col="donor"), KeyError, "donor"),
    (dict(groups_col="celltype"), KeyError, "celltype"),
    (dict(mode="median"), NotImplementedError, "mode"),
    (dict(groups_col=None), NotImplementedError, "groups_col"),
    (dict(layer="counts"), KeyError, "layer 'counts' is not in layers"),
    (dict(raw=True), ValueError, "adata.raw` is empty"),
    (dict(empty=True), NotImplementedError, "empty"),
])
def test_pseudobulk_parameters_are_checked(kwargs, error, match):
    call = {**dict(sample_col="sample", groups_col="cell_type"), **kwargs}
    with pytest.raises(error, match=match):
        scflux.pp.pseudobulk(COUNTS, **call)


# ----------------------------------------------------------------------------------------------------------- concat


@pytest.mark.parametrize("form, join", [("list", "inner"), ("list", "outer"), ("dict", "inner"),
                                        ("backed", "outer")])
def test_concat_matches_anndata(jar, tmp_path, form, join):
    if form == "dict":
        adatas, keys = {"a": COUNTS, "b": COUNTS_B}, None
    elif form == "backed":
        adatas, keys = [anndata.read_h5ad(COUNTS, backed="r"), anndata.read_h5ad(COUNTS_B, backed="r")], ["a", "b"]
    else:
        adatas, keys = [COUNTS, COUNTS_B], ["a", "b"]
    before = sha256(COUNTS)
    result = scflux.concat(adatas, join=join, label="batch", keys=keys, index_unique="-")
    assert isinstance(result, anndata.AnnData) and not result.isbacked
    check_concat(result, join)
    assert sha256(COUNTS) == before


@pytest.mark.parametrize("join", ["inner", "outer"])
def test_concat_of_containers_is_a_lazy_container_with_anndatas_result(engine, join):
    result = scflux.concat([scflux.read_h5ad(COUNTS), scflux.read_h5ad(COUNTS_B)], join=join, label="batch",
                           keys=["a", "b"], index_unique="-")
    assert isinstance(result, scflux.AnnData) and isinstance(result.X, scflux.XView)
    check_concat(result.to_memory(), join)
    with pytest.raises(TypeError, match="write_h5ad"):
        scflux.concat([scflux.read_h5ad(COUNTS), scflux.read_h5ad(COUNTS_B)], out="c.h5ad")


def test_concat_out_returns_the_file_backed(jar, tmp_path):
    out = tmp_path / "c.h5ad"
    result = scflux.concat([COUNTS, COUNTS_B], label="batch", keys=["a", "b"], index_unique="-", out=out)
    assert result.isbacked and result.filename == out
    check_concat(result.to_memory(), "inner")
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(axis=1), NotImplementedError, "axis"),
    (dict(merge="same"), NotImplementedError, "merge"),
    (dict(uns_merge="first"), NotImplementedError, "uns_merge"),
    (dict(pairwise=True), NotImplementedError, "pairwise"),
    (dict(join="left"), ValueError, "join"),
    (dict(keys=["a"]), ValueError, "keys"),
])
def test_concat_parameters_are_checked(kwargs, error, match):
    with pytest.raises(error, match=match):
        scflux.concat([COUNTS, COUNTS_B], **kwargs)


def test_concat_keys_twice_is_anndatas_type_error():
    with pytest.raises(TypeError, match="keys"):
        scflux.concat({"a": COUNTS, "b": COUNTS_B}, keys=["x", "y"])
