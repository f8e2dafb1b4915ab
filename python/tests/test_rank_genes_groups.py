"""rank_genes_groups against scanpy 1.11.5 (rgg_*.csv: ``sc.tl.rank_genes_groups(adata_log1p, "cell_type",
method=M)``), on ``lognorm`` (synth-3k normalized and log1p'd by scflux, whose log1p rounds 4% of the values one ulp
away from numpy's: the strongest markers and their scores agree; every gene agrees on scanpy's very input, in
flux-ops' RankGenesGroupsReferenceTest)."""

import anndata
import pandas as pd
import pytest

import scflux
from conftest import COUNTS, EXPECTED, leftovers, run_step, MODES


def _reference(method: str) -> pd.DataFrame:
    return pd.read_csv(EXPECTED / f"rgg_{method}.csv.gz")


@pytest.mark.parametrize("method", ["t-test", "t-test_overestim_var", "wilcoxon"])
def test_the_strongest_markers_are_scanpys(jar, lognorm, tmp_path, method):
    result = scflux.tl.rank_genes_groups(lognorm, "cell_type", method=method, copy=True)
    assert isinstance(result, anndata.AnnData) and not result.isbacked
    r = result.uns["rank_genes_groups"]
    assert r["params"]["method"] == method and r["params"]["groupby"] == "cell_type"
    ref = _reference(method)
    assert list(r["names"].dtype.names) == sorted(ref["group"].unique())
    for group, expected in ref.groupby("group"):
        top = expected[expected["rank"] < 20]
        assert set(r["names"][group][:20]) == set(top["names"]), group
        scores = dict(zip(expected["names"], expected["scores"]))
        for name, score in zip(r["names"][group][:20], r["scores"][group][:20]):
            assert score == pytest.approx(scores[name], rel=1e-4), (group, name)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("mode", MODES)
def test_results_go_into_the_file(jar, lognorm, tmp_path, mode):
    a = run_step(scflux.tl.rank_genes_groups, lognorm, mode, tmp_path, groupby="cell_type", groups=["T02", "T01"],
                 n_genes=10, pts=True, method="wilcoxon", tie_correct=True)
    r = a.uns["rank_genes_groups"]
    assert r["names"].dtype.names == ("T02", "T01") and r["names"].shape == (10,)
    assert list(r["pts"].columns) == ["T02", "T01"] and list(r["pts_rest"].columns) == ["T02", "T01"]
    assert r["scores"].dtype["T01"].name == "float32" and r["pvals_adj"].dtype["T01"].name == "float64"


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(groupby="cluster"), KeyError, "cluster"),
    (dict(method="logreg"), NotImplementedError, "method"),
    (dict(method="ttest"), ValueError, "Method must be one of"),
    (dict(corr_method="holm"), ValueError, "Correction method"),
    (dict(groups="T01"), ValueError, "Specify a sequence of groups"),
    (dict(use_raw=True), ValueError, "adata.raw"),
    (dict(mask_var="highly_variable"), NotImplementedError, "mask_var"),
    (dict(rankby_abs=True), NotImplementedError, "rankby_abs"),
    (dict(key_added="markers"), NotImplementedError, "key_added"),
    (dict(penalty="l1"), NotImplementedError, "penalty"),
])
def test_parameters_are_checked(kwargs, error, match):
    call = {"groupby": "cell_type", **kwargs}
    with pytest.raises(error, match=match):
        scflux.tl.rank_genes_groups(COUNTS, **call)
