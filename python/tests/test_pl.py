"""scflux.pl: each plot returns its figure and shows what the container holds (the points are the obs columns,
the components' scores, the genes' statistics; the labels the markers' names), on the container after the tutorial's
steps (whose numbers the other tests compare with scanpy's)."""

import numpy as np
import pytest

import scflux
from conftest import EXPECTED, COUNTS

matplotlib = pytest.importorskip("matplotlib", reason="scflux.pl draws with matplotlib (python3-matplotlib)")
matplotlib.use("Agg")


@pytest.fixture(scope="module")
def adata(engine):
    a = scflux.read_h5ad(COUNTS)
    scflux.pp.calculate_qc_metrics(a, qc_vars={"mt": "MT-"}, inplace=True)
    scflux.pp.normalize_total(a, target_sum=1e4)
    scflux.pp.log1p(a)
    scflux.pp.highly_variable_genes(a, n_top_genes=500)
    scflux.pp.pca(a, n_comps=20)
    scflux.tl.rank_genes_groups(a, "cell_type")
    return a


def offsets(ax):
    """The points of the scatters on ``ax`` (not the violins' bodies)."""
    from matplotlib.collections import PathCollection
    return np.concatenate([c.get_offsets() for c in ax.collections if isinstance(c, PathCollection)])


def same_points(actual, expected):
    order = lambda p: p[np.lexsort(p.T[::-1])]  # noqa: E731
    np.testing.assert_allclose(order(np.asarray(actual, float)), order(np.asarray(expected, float)), rtol=1e-6)


def test_violin_shows_each_cell_per_group(adata, tmp_path):
    keys = ["n_genes_by_counts", "total_counts", "pct_counts_mt"]
    fig = scflux.pl.violin(adata, keys, groupby="sample", save=tmp_path / "violin.png")
    assert isinstance(fig, matplotlib.figure.Figure) and (tmp_path / "violin.png").stat().st_size > 0
    for ax, key in zip(fig.axes, keys):
        assert ax.get_ylabel() == key
        ys = np.sort(offsets(ax)[:, 1])
        np.testing.assert_allclose(ys, np.sort(adata.obs[key].to_numpy(float)), rtol=1e-6)
        assert [t.get_text() for t in ax.get_xticklabels()] == list(adata.obs["sample"].cat.categories)


def test_scatter_of_two_columns_coloured_by_a_third(adata):
    fig = scflux.pl.scatter(adata, x="total_counts", y="n_genes_by_counts", color="pct_counts_mt")
    ax = fig.axes[0]
    same_points(offsets(ax), adata.obs[["total_counts", "n_genes_by_counts"]].to_numpy(float))
    assert len(fig.axes) == 2, "a colour bar for a numeric colour"


def test_highly_variable_genes_in_black(adata):
    fig = scflux.pl.highly_variable_genes(adata)
    hv = adata.var["highly_variable"].to_numpy()
    chosen = fig.axes[0].collections[1].get_offsets()
    assert len(chosen) == hv.sum() == 500
    same_points(chosen, adata.var.loc[hv, ["means", "dispersions"]].to_numpy(float))


def test_pca_coloured_by_a_category(adata):
    fig = scflux.pl.pca(adata, color="cell_type")
    ax = fig.axes[0]
    same_points(offsets(ax), np.asarray(adata.obsm["X_pca"])[:, :2])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(adata.obs["cell_type"].cat.categories)
    assert ax.get_xlabel() == "PC1"


def test_umap_coloured_by_the_clusters(engine):
    a = scflux.read_h5ad(EXPECTED / "graph_neighbors.h5ad")
    scflux.tl.umap(a, maxiter=50)
    scflux.tl.leiden(a, flavor="igraph", n_iterations=2)
    fig = scflux.pl.umap(a, color="leiden")
    ax = fig.axes[0]
    same_points(offsets(ax), np.asarray(a.obsm["X_umap"]))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [str(i) for i in range(7)]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("UMAP1", "UMAP2")
    with pytest.raises(KeyError, match="run scflux.tl.umap first"):
        scflux.pl.umap(scflux.read_h5ad(EXPECTED / "graph_neighbors.h5ad"))


def test_pca_variance_ratio(adata):
    fig = scflux.pl.pca_variance_ratio(adata, n_pcs=10)
    np.testing.assert_allclose(fig.axes[0].lines[0].get_ydata(), adata.uns["pca"]["variance_ratio"][:10])


def test_rank_genes_groups_names_the_markers(adata):
    fig = scflux.pl.rank_genes_groups(adata, n_genes=5)
    names = adata.uns["rank_genes_groups"]["names"]
    groups = list(names.dtype.names)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == len(groups)
    for ax, group in zip(visible, groups):
        assert [t.get_text() for t in ax.texts] == list(names[group][:5])
        assert ax.get_title().startswith(group)


def test_a_missing_column_names_it(adata):
    with pytest.raises(KeyError, match="nope"):
        scflux.pl.scatter(adata, x="total_counts", y="nope")
