"""``scflux.tl``: scanpy's ``sc.tl`` on data larger than memory (``rank_genes_groups``).

As :mod:`scflux.pp`: ``data`` is a :class:`scflux.AnnData`, changed as scanpy changes an AnnData, or a path to an
``.h5ad`` or a backed AnnData, the same call on the file's container: scanpy's ``copy=False`` rewrites the file
atomically, ``out=PATH`` writes the result there instead, ``copy=True`` returns the result as an AnnData.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable

from . import _catalog, _steps
from ._params import boolean, require, text, unsupported

__all__ = ["rank_genes_groups", "umap", "leiden"]


@_steps.on_files(copy=False)
def rank_genes_groups(data, groupby, *, mask_var=None, use_raw=None, groups="all", reference="rest", n_genes=None,
                      rankby_abs=False, pts=False, key_added=None, copy=False, method=None,
                      corr_method="benjamini-hochberg", tie_correct=False, layer=None, out=None, **kwds):
    """scanpy's ``sc.tl.rank_genes_groups`` (command ``scflux rank-genes-groups``), methods ``t-test``,
    ``t-test_overestim_var`` and ``wilcoxon``, on log-normalized X (or ``layer``).

    Adds ``uns["rank_genes_groups"]`` as scanpy does (``params``; the structured arrays ``names``, ``scores``,
    ``logfoldchanges``, ``pvals``, ``pvals_adj``; ``pts`` and ``pts_rest`` with ``pts=True``), which
    ``sc.get.rank_genes_groups_df`` reads. Returns ``None``, or the AnnData with ``copy=True``. ``use_raw=None``
    (scanpy's default) tests raw when there is one and no ``layer`` is given.
    """
    where = "rank_genes_groups"
    require(where, mask_var=(mask_var, None), rankby_abs=(rankby_abs, False), key_added=(key_added, None))
    if kwds:
        raise unsupported(where, next(iter(kwds)), next(iter(kwds.values())), "only logreg takes more arguments")
    declared = _catalog.parameter(where, "method")
    method = declared["default"] if method is None else method
    if method not in declared["choices"] + declared["unsupported"]:  # scanpy's own message
        raise ValueError(f"Method must be one of {(*declared['unsupported'], *declared['choices'])}.")
    method = _catalog.check(where, "method", method)
    corr_methods = _catalog.parameter(where, "corr_method")["choices"]
    if corr_method not in corr_methods:
        raise ValueError(f"Correction method must be one of {set(corr_methods)}.")
    copy, pts, tie_correct = boolean("copy", copy), boolean("pts", pts), boolean("tie_correct", tie_correct)
    values = dict(groupby=text("groupby", groupby), groups=_groups(where, groups), reference=str(reference),
                  n_genes=n_genes, pts=pts, method=method, corr_method=corr_method, tie_correct=tie_correct)
    if use_raw is None:
        use_raw = data.raw is not None and layer is None
    arguments = _catalog.arguments(where, **values)
    work = _steps.target(data, copy)
    _steps.run(work, where, arguments, obs_columns=[groupby], layer=layer, use_raw=boolean("use_raw", use_raw),
               transforms=False)
    return work if copy else None


def _groups(where: str, groups) -> list[str] | None:
    """scanpy's ``groups``: ``"all"`` (None here) or a sequence of group names."""
    if isinstance(groups, str):
        if groups != "all":
            raise ValueError("Specify a sequence of groups")
        return None
    if isinstance(groups, Iterable):
        names = [str(g) for g in groups]
        if not names or any("," in g for g in names):
            raise unsupported(where, "groups", groups, "scflux needs group names without commas")
        return names
    raise TypeError(f"groups must be 'all' or a sequence of group names, got {groups!r}")


@_steps.on_files(copy=False)
def leiden(adata, resolution=1, *, restrict_to=None, random_state=0, key_added="leiden", adjacency=None,
           directed=None, use_weights=True, n_iterations=-1, partition_type=None, neighbors_key=None, obsp=None,
           copy=False, flavor="leidenalg", out=None, **clustering_args):
    """scanpy's ``sc.tl.leiden`` (command ``scflux leiden``): Leiden's algorithm maximizing modularity (with
    ``resolution``) on the neighbors' connectivities (or obsp ``obsp``), by the CWTS library of the algorithm's
    authors. obs ``key_added``: categorical labels "0", "1", ...; uns ``key_added`` its params.

    Both flavors run the same algorithm on the symmetric graph (where directed and undirected modularity agree):
    ``flavor="igraph"`` with ``n_iterations=2`` is scanpy's future default, gives scanpy's clusters and numbers them
    as igraph does (by each cluster's first cell); ``"leidenalg"`` (scanpy's default, which warns as scanpy does)
    numbers them by size, as leidenalg does. ``n_iterations=-1`` iterates until an iteration changes nothing. The
    labels depend on the graph and ``random_state`` only.
    """
    where = "leiden"
    require(where, restrict_to=(restrict_to, None), adjacency=(adjacency, None),
            partition_type=(partition_type, None), use_weights=(use_weights, True))
    if clustering_args:
        raise unsupported(where, next(iter(clustering_args)), next(iter(clustering_args.values())),
                          "igraph's and leidenalg's own arguments are not taken")
    if flavor not in ("leidenalg", "igraph"):
        raise ValueError(f"flavor must be either 'igraph' or 'leidenalg', but {flavor!r} was passed")
    if flavor == "igraph" and directed:
        raise ValueError("Cannot use igraph's leiden implementation with a directed graph.")
    if flavor == "leidenalg":
        warnings.warn('In the future, the default backend for leiden will be igraph instead of leidenalg.\n\n'
                      'To achieve the future defaults please pass: flavor="igraph" and n_iterations=2.  directed '
                      'must also be False to work with igraph\'s implementation.', FutureWarning, stacklevel=3)
    copy = boolean("copy", copy)
    arguments = _catalog.arguments(where, resolution=resolution, random_state=random_state, key_added=key_added,
                                   n_iterations=n_iterations, neighbors_key=neighbors_key, obsp=obsp, flavor=flavor)
    if obsp is not None:
        if obsp not in adata.obsp:
            raise KeyError(f"obsp has no {obsp!r} (it has: {', '.join(adata.obsp) or 'none'})")
        elements = {"obsp": [obsp]}
    else:
        elements = _graph_elements(adata, neighbors_key)
    work = _steps.target(adata, copy)
    _steps.run(work, where, arguments, transforms=False, elements=elements, reads_x=False)
    return work if copy else None


@_steps.on_files(copy=False)
def umap(adata, *, min_dist=0.5, spread=1.0, n_components=2, maxiter=None, alpha=1.0, gamma=1.0,
         negative_sample_rate=5, init_pos="spectral", random_state=0, a=None, b=None, method="umap", key_added=None,
         neighbors_key="neighbors", copy=False, out=None):
    """scanpy's ``sc.tl.umap`` (command ``scflux umap``): the neighbors' connectivities laid out as umap-learn lays
    them out (the spectral start, then stochastic gradient descent with negative sampling; ``a`` and ``b`` fitted
    from ``min_dist`` and ``spread`` as umap-learn fits them). obsm ``X_umap`` (or ``key_added``), uns ``umap``
    params. ``init_pos``: ``"spectral"``, ``"random"`` or an obsm key. The map depends on the graph and
    ``random_state`` only (umap-learn's own random stream is not reproduced: not the same points, as faithful a map).
    """
    where = "umap"
    require(where, method=(method, "umap"))
    copy = boolean("copy", copy)
    arguments = _catalog.arguments(where, min_dist=min_dist, spread=spread, n_components=n_components,
                                   maxiter=maxiter, alpha=alpha, gamma=gamma,
                                   negative_sample_rate=negative_sample_rate, init_pos=text("init_pos", init_pos),
                                   random_state=random_state, a=a, b=b, key_added=key_added,
                                   neighbors_key=neighbors_key)
    elements = _graph_elements(adata, neighbors_key)
    if init_pos not in ("spectral", "random"):
        if init_pos not in adata.obsm:
            raise ValueError(f"init_pos={init_pos!r}: not 'spectral', 'random', nor an obsm key "
                             f"(obsm: {', '.join(adata.obsm) or 'none'})")
        elements["obsm"] = [init_pos]
    work = _steps.target(adata, copy)
    _steps.run(work, where, arguments, transforms=False, elements=elements, reads_x=False)
    return work if copy else None


def _graph_elements(adata, neighbors_key) -> dict:
    """The uns entry of the neighbors and the obsp connectivities it names, which a graph step reads."""
    key = "neighbors" if neighbors_key is None else neighbors_key
    if key not in adata.uns:
        raise KeyError(f"No neighbors in .uns[{key!r}]: run scflux.pp.neighbors first")
    graph = str(adata.uns[key].get("connectivities_key", "connectivities"))
    if graph not in adata.obsp:
        raise KeyError(f"obsp has no {graph!r}, which uns[{key!r}] names")
    return {"obsp": [graph], "uns": [key]}
