"""``scflux.pl``: the plots a notebook user looks at, as scanpy's ``sc.pl`` draws them, from the small arrays only.

Each function takes a :class:`scflux.AnnData` (or an ``anndata.AnnData``), reads obs, var, obsm and uns, never X,
draws with matplotlib (Debian: ``python3-matplotlib``) and returns the ``matplotlib.figure.Figure``, which Jupyter
shows inline. ``show=True`` also calls ``matplotlib.pyplot.show()``; ``save=PATH`` writes the figure there.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["violin", "scatter", "highly_variable_genes", "pca", "umap", "pca_variance_ratio", "rank_genes_groups"]


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("scflux.pl draws with matplotlib: install it (Debian: apt install python3-matplotlib)") \
            from e
    return plt


def _done(fig, show, save):
    if save:
        fig.savefig(save, bbox_inches="tight")
    if show:
        _pyplot().show()
    return fig


def _column(adata, key: str) -> pd.Series:
    if key in adata.obs.columns:
        return adata.obs[key]
    raise KeyError(f"Could not find key {key!r} in .obs.columns (it has: {', '.join(map(str, adata.obs.columns))})")


def violin(adata, keys, groupby=None, *, jitter=0.4, size=1, multi_panel=None, show=None, save=None):
    """scanpy's ``sc.pl.violin`` of obs columns (the QC tutorial's ``["n_genes_by_counts", "total_counts",
    "pct_counts_mt"]``): one panel per key (``multi_panel``, or always without ``groupby``), one violin per group of
    ``groupby``, the cells as jittered points over it."""
    plt = _pyplot()
    keys = [keys] if isinstance(keys, str) else list(keys)
    series = [_column(adata, k).astype(float) for k in keys]
    if groupby is None:
        groups, labels = [np.ones(len(series[0]), dtype=bool)], [""]
    else:
        g = _column(adata, groupby).astype("category")
        labels = [str(c) for c in g.cat.categories]
        groups = [(g == c).to_numpy() for c in g.cat.categories]
    fig, axes = plt.subplots(1, len(keys), figsize=(max(3, 1.2 * len(labels)) * len(keys), 4), squeeze=False)
    rng = np.random.default_rng(0)
    for ax, key, values in zip(axes[0], keys, series):
        data = [values.to_numpy()[m] for m in groups]
        present = [i for i, d in enumerate(data) if len(d)]
        ax.violinplot([data[i] for i in present], positions=[i + 1 for i in present], showextrema=False)
        width = 0.4 if jitter is True else float(jitter or 0)
        for i in present if width else ():
            offsets = rng.uniform(-width / 2, width / 2, len(data[i]))
            ax.scatter(i + 1 + offsets, data[i], s=size, c="black", alpha=0.5, linewidths=0)
        ax.set_xticks(range(1, len(labels) + 1), labels)
        ax.set_ylabel(key)
        if groupby is not None:
            ax.set_xlabel(groupby)
    fig.tight_layout()
    return _done(fig, show, save)


def scatter(adata, x, y, *, color=None, size=None, show=None, save=None):
    """scanpy's ``sc.pl.scatter`` of two obs columns (the tutorial's ``x="total_counts", y="n_genes_by_counts",
    color="pct_counts_mt"``)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(4.5, 4))
    _points(fig, ax, _column(adata, x).to_numpy(float), _column(adata, y).to_numpy(float), adata, color, size)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    fig.tight_layout()
    return _done(fig, show, save)


def _points(fig, ax, xs, ys, adata, color, size):
    """Points at (xs, ys), coloured by obs ``color``: a legend for a categorical column, a colour bar for numbers."""
    size = size if size is not None else min(20.0, 120000 / max(len(xs), 1))
    if color is None:
        ax.scatter(xs, ys, s=size, c="grey", linewidths=0)
        return
    c = _column(adata, color)
    if isinstance(c.dtype, pd.CategoricalDtype) or c.dtype == object or c.dtype == bool:
        c = c.astype("category")
        cmap = _pyplot().get_cmap("tab20" if len(c.cat.categories) > 10 else "tab10")
        for i, category in enumerate(c.cat.categories):
            mask = (c == category).to_numpy()
            ax.scatter(xs[mask], ys[mask], s=size, color=cmap(i % cmap.N), label=str(category), linewidths=0)
        ax.legend(title=color, frameon=False, bbox_to_anchor=(1, 0.5), loc="center left", markerscale=2)
    else:
        drawn = ax.scatter(xs, ys, s=size, c=c.to_numpy(float), cmap="viridis", linewidths=0)
        fig.colorbar(drawn, ax=ax, label=color)


def highly_variable_genes(adata, *, log=False, show=None, save=None):
    """scanpy's ``sc.pl.highly_variable_genes``: each gene's mean against its dispersion (seurat, cell_ranger) or
    variance (seurat_v3), normalized and not, the highly variable ones in black."""
    plt = _pyplot()
    var = adata if isinstance(adata, pd.DataFrame) else adata.var
    if "highly_variable" not in var.columns:
        raise KeyError("no var['highly_variable']: run scflux.pp.highly_variable_genes first")
    seurat_v3 = "variances_norm" in var.columns
    ys = ("variances", "variances_norm") if seurat_v3 else ("dispersions", "dispersions_norm")
    hv = var["highly_variable"].to_numpy(bool)
    means = var["means"].to_numpy(float)
    fig, axes = plt.subplots(1, 2, figsize=(9, 4))
    for ax, key in zip(axes, ys):
        values = var[key].to_numpy(float)
        for mask, colour, label in ((~hv, "grey", "other genes"), (hv, "black", "highly variable genes")):
            ax.scatter(means[mask], values[mask], s=4, c=colour, label=label, linewidths=0)
        if log:
            ax.set_xscale("log")
            ax.set_yscale("log")
        ax.set_xlabel("mean expressions of genes")
        ax.set_ylabel(f"{key.replace('_', ' ')} of genes")
    axes[0].legend(frameon=False)
    fig.tight_layout()
    return _done(fig, show, save)


def pca(adata, *, color=None, components=None, size=None, show=None, save=None):
    """scanpy's ``sc.pl.pca``: the cells on two principal components (``components="1,2"``, the default), coloured
    by an obs column."""
    return _embedding(adata, "X_pca", "PC", "scflux.pp.pca", color, components, size, show, save)


def umap(adata, *, color=None, components=None, size=None, show=None, save=None):
    """scanpy's ``sc.pl.umap``: the cells on the map (``components="1,2"``, the default), coloured by an obs column
    (``color="leiden"``: one colour per cluster, with a legend)."""
    return _embedding(adata, "X_umap", "UMAP", "scflux.tl.umap", color, components, size, show, save)


def _embedding(adata, key, axis, step, color, components, size, show, save):
    """The cells on two columns of obsm ``key``, as scanpy's ``pl.embedding`` draws them."""
    plt = _pyplot()
    if key not in adata.obsm:
        raise KeyError(f"no obsm[{key!r}]: run {step} first")
    first, second = (int(c) - 1 for c in (components or "1,2").split(","))
    points = np.asarray(adata.obsm[key])
    fig, ax = plt.subplots(figsize=(5, 4))
    _points(fig, ax, points[:, first], points[:, second], adata, color, size)
    ax.set_xlabel(f"{axis}{first + 1}")
    ax.set_ylabel(f"{axis}{second + 1}")
    ax.set_xticks([])
    ax.set_yticks([])
    fig.tight_layout()
    return _done(fig, show, save)


def pca_variance_ratio(adata, n_pcs=30, *, log=False, show=None, save=None):
    """scanpy's ``sc.pl.pca_variance_ratio``: each component's share of the variance, by rank, labelled PC1..."""
    plt = _pyplot()
    ratio = np.asarray(adata.uns["pca"]["variance_ratio"], dtype=float)[:n_pcs]
    fig, ax = plt.subplots(figsize=(5, 4))
    ranks = np.arange(len(ratio))
    ax.plot(ranks, ratio, "o", markersize=3, color="black")
    for r, v in zip(ranks, ratio):
        ax.text(r, v, f"PC{r + 1}", rotation=90, ha="center", va="bottom", fontsize=7)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("ranking")
    ax.set_ylabel("variance ratio")
    fig.tight_layout()
    return _done(fig, show, save)


def rank_genes_groups(adata, groups=None, n_genes=20, *, key="rank_genes_groups", ncols=4, show=None, save=None):
    """scanpy's ``sc.pl.rank_genes_groups``: per group, its top ``n_genes`` markers' names placed at their rank and
    score."""
    plt = _pyplot()
    result = adata.uns[key]
    names, scores = result["names"], result["scores"]
    groups = list(names.dtype.names) if groups is None else [str(g) for g in groups]
    rows = (len(groups) + ncols - 1) // ncols
    fig, axes = plt.subplots(rows, min(ncols, len(groups)), figsize=(4 * min(ncols, len(groups)), 3.5 * rows),
                             squeeze=False)
    for ax, group in zip(axes.ravel(), groups):
        top_scores = np.asarray(scores[group][:n_genes], dtype=float)
        for rank, (gene, score) in enumerate(zip(names[group][:n_genes], top_scores)):
            ax.text(rank, score, str(gene), rotation=90, ha="center", va="bottom", fontsize=8)
        if len(top_scores):
            low, high = float(top_scores.min()), float(top_scores.max())
            ax.set_ylim(low - 0.1 * (high - low + 1e-9), high + 0.3 * (high - low + 1e-9))
        ax.set_xlim(-0.9, max(n_genes, 1) - 0.1)
        ax.set_title(f"{group} vs. {result['params'].get('reference', 'rest')}")
        ax.set_xlabel("ranking")
        ax.set_ylabel("score")
    for ax in axes.ravel()[len(groups):]:
        ax.set_visible(False)
    fig.tight_layout()
    return _done(fig, show, save)
