"""neighbors and leiden against scanpy's on the 3,000-cell fixture (``graph_neighbors.h5ad``: scanpy's
``sc.pp.neighbors(n_neighbors=15, use_rep="X_pca")`` with the X_pca it ran on; ``graph_leiden.csv``: its
``sc.tl.leiden(flavor="igraph", n_iterations=2, random_state=0)``), on the container and on a file."""

import gzip
import shutil

import anndata
import numpy as np
import pandas as pd
import pytest

import scflux
from conftest import EXPECTED, leftovers

NEIGHBORS = EXPECTED / "graph_neighbors.h5ad"


@pytest.fixture(scope="module")
def scanpy():
    return anndata.read_h5ad(NEIGHBORS)


@pytest.fixture(scope="module")
def scanpy_leiden():
    with gzip.open(EXPECTED / "graph_leiden.csv.gz", "rt") as f:
        return pd.read_csv(f, index_col=0, dtype={"leiden": str})["leiden"]


def assert_same_graph(ours, theirs, rtol):
    assert ours.shape == theirs.shape and ours.nnz == theirs.nnz
    a, b = ours.tocoo(), theirs.tocoo()
    ka = dict(zip(zip(a.row.tolist(), a.col.tolist()), a.data))
    kb = dict(zip(zip(b.row.tolist(), b.col.tolist()), b.data))
    assert ka.keys() == kb.keys(), "the same edges"
    keys = list(kb)
    np.testing.assert_allclose([ka[k] for k in keys], [kb[k] for k in keys], rtol=rtol)


def test_neighbors_then_leiden_on_the_container_are_scanpys(engine, scanpy, scanpy_leiden):
    adata = scflux.read_h5ad(NEIGHBORS)
    for key in ("distances", "connectivities"):
        del adata.obsp[key]
    del adata.uns["neighbors"]
    assert scflux.pp.neighbors(adata) is None
    assert adata.obsp["distances"].dtype == np.float64 and adata.obsp["connectivities"].dtype == np.float32
    assert_same_graph(adata.obsp["distances"], scanpy.obsp["distances"], 0)
    assert_same_graph(adata.obsp["connectivities"], scanpy.obsp["connectivities"], 1e-6)
    assert adata.uns["neighbors"]["params"] == dict(scanpy.uns["neighbors"]["params"])
    scflux.tl.leiden(adata, flavor="igraph", n_iterations=2)
    assert isinstance(adata.obs["leiden"].dtype, pd.CategoricalDtype)
    assert list(adata.obs["leiden"].cat.categories) == [str(i) for i in range(7)]
    pd.testing.assert_series_equal(adata.obs["leiden"].astype(str), scanpy_leiden.loc[adata.obs_names],
                                   check_names=False)
    assert dict(adata.uns["leiden"]["params"]) == {"resolution": 1.0, "random_state": 0, "n_iterations": 2}


def test_on_a_file_each_call_rewrites_it(engine, tmp_path, scanpy, scanpy_leiden):
    path = tmp_path / "graph.h5ad"
    shutil.copyfile(NEIGHBORS, path)
    scflux.pp.neighbors(path, key_added="ours")
    scflux.tl.leiden(path, flavor="igraph", n_iterations=2, neighbors_key="ours", key_added="clusters")
    back = anndata.read_h5ad(path)
    assert_same_graph(back.obsp["ours_connectivities"], scanpy.obsp["connectivities"], 1e-6)
    assert back.obsp["ours_distances"].dtype == np.float64, "written as scanpy writes its exact path's"
    assert back.uns["ours"]["connectivities_key"] == "ours_connectivities"
    assert (back.obs["clusters"].astype(str) == scanpy_leiden.loc[back.obs_names]).all()
    assert leftovers(tmp_path) == []


def test_umap_on_the_container_is_as_faithful_as_umap_learns(engine, scanpy):
    adata = scflux.read_h5ad(NEIGHBORS)
    scflux.tl.umap(adata)
    emb = adata.obsm["X_umap"]
    assert emb.shape == (3000, 2) and emb.dtype == np.float32
    assert set(adata.uns["umap"]["params"]) == {"a", "b"}
    np.testing.assert_allclose([adata.uns["umap"]["params"]["a"], adata.uns["umap"]["params"]["b"]],
                               [0.583030020479462, 1.3341669929263487], rtol=1e-6)  # scipy's curve_fit
    # each cell's 15 nearest in X_pca: how many stay among its 15 nearest in the map (umap-learn: 0.1322)
    def nearest(x):
        d = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)
        np.fill_diagonal(d, np.inf)
        return np.argsort(d, axis=1)[:, :15]
    a, b = nearest(scanpy.obsm["X_pca"].astype(np.float64)), nearest(emb.astype(np.float64))
    kept = np.mean([len(set(a[i]) & set(b[i])) / 15 for i in range(len(a))])
    assert kept >= 0.1322 - 0.02


def test_scanpys_default_flavor_warns_as_scanpy_and_iterates_until_stable(engine, scanpy_leiden):
    adata = scflux.read_h5ad(NEIGHBORS)
    with pytest.warns(FutureWarning, match='flavor="igraph" and n_iterations=2'):
        scflux.tl.leiden(adata)
    assert adata.uns["leiden"]["params"]["n_iterations"] == -1
    assert adata.obs["leiden"].nunique() >= 5


@pytest.mark.parametrize("call, error, match", [
    (lambda a: scflux.pp.neighbors(a, use_rep="X_umap"), KeyError, "X_umap"),
    (lambda a: scflux.pp.neighbors(a, knn=False), NotImplementedError, "knn"),
    (lambda a: scflux.pp.neighbors(a, method="rapids"), ValueError, "method"),
    (lambda a: scflux.pp.neighbors(a, n_pcs=31), ValueError, "31"),
    (lambda a: scflux.tl.leiden(a, flavor="igraph", directed=True), ValueError, "directed"),
    (lambda a: scflux.tl.leiden(a, flavor="igraph", neighbors_key="nope"), KeyError, "run scflux.pp.neighbors"),
    (lambda a: scflux.tl.leiden(a, use_weights=False), NotImplementedError, "use_weights"),
    (lambda a: scflux.tl.umap(a, method="densmap"), NotImplementedError, "method"),
    (lambda a: scflux.tl.umap(a, init_pos="paga"), ValueError, "init_pos"),
    (lambda a: scflux.tl.umap(a, neighbors_key="nope"), KeyError, "run scflux.pp.neighbors"),
])
def test_refusals_name_the_parameter(engine, call, error, match):
    adata = scflux.read_h5ad(NEIGHBORS)
    with pytest.raises(error, match=match):
        call(adata)
