"""``scflux.pp``: scanpy's ``sc.pp`` (and decoupler's ``dc.pp.pseudobulk``) on data larger than memory.

Each function takes the same parameters, with the same names and defaults, as scanpy 1.11 (decoupler 2.1), and
changes its data or returns what scanpy returns. ``data`` is a :class:`scflux.AnnData` (``scflux.read_h5ad``), which
the function changes as scanpy's change an AnnData, X staying a view held by the engine; or a path to an ``.h5ad``
(or a Cell Ranger ``.h5``) or a backed AnnData (``anndata.read_h5ad(path, backed="r")``), which is the same call on
the file's container, written once:

- scanpy's "modify the data" (``inplace=True`` / ``copy=False``, its default) rewrites the file atomically; a
  backed AnnData passed as ``data`` then shows the new file.
- ``out=PATH`` (scflux's one extra parameter, for files) leaves the input as it is and writes the result to PATH;
  the return value still follows scanpy (``None``, or the DataFrame/tuple/dict/AnnData scanpy returns).
- what scanpy returns (``inplace=False``, ``copy=True``) leaves the file as it is; an AnnData returned is in memory,
  or backed on ``out`` when ``out`` was given.

A parameter value scflux cannot honour (``chunked=True``, ``obsm=...``) raises ``NotImplementedError`` naming it.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping

import numpy as np

from . import _catalog, _steps
from ._anndata import AnnData
from ._params import boolean, count, number, require, text, unsupported

__all__ = ["calculate_qc_metrics", "normalize_total", "log1p", "highly_variable_genes", "pca", "scale",
           "neighbors", "filter_cells", "filter_genes", "pseudobulk"]


class _Empty:
    """scanpy's ``_empty`` sentinel of ``pca(mask_var=...)``: use ``var["highly_variable"]`` when present."""

    def __repr__(self) -> str:
        return "_empty"


_empty = _Empty()


# --------------------------------------------------------------------------------------------------------------- qc

@_steps.on_files(inplace=True)
def calculate_qc_metrics(data, *, expr_type="counts", var_type="genes", qc_vars=(),
                         percent_top=(50, 100, 200, 500), layer=None, use_raw=False, inplace=False, log1p=True,
                         parallel=None, out=None):
    """scanpy's ``sc.pp.calculate_qc_metrics`` (command ``scflux qc``).

    ``qc_vars`` names existing bool var columns (scanpy's form: a str or a list), or is a dict
    ``{"mt": "MT-"}`` of column name to gene-name prefix: the column is created (true for genes whose name starts
    with the prefix) and used. ``percent_top=None`` (or empty) adds no ``pct_counts_in_top_*`` columns. Returns
    ``(obs_metrics, var_metrics)`` DataFrames with ``inplace=False`` (scanpy's default; the file is not changed
    unless ``out`` is given), else ``None`` with the columns added to the file.
    """
    where = "calculate_qc_metrics"
    require(where, expr_type=(expr_type, "counts"), var_type=(var_type, "genes"))
    if parallel is not None:
        warnings.warn("Argument `parallel` is deprecated, and currently has no effect.", FutureWarning,
                      stacklevel=2)
    inplace = boolean("inplace", inplace)
    log1p = _catalog.check(where, "log1p", log1p)
    ranks = _percent_top(percent_top)
    work = data if inplace else data._taken(None, None)
    names = _qc_var_names(work, qc_vars)
    arguments = _catalog.arguments(where, qc_vars=names, percent_top=ranks, log1p=log1p)
    _steps.run(work, where, arguments, var_columns=names, layer=layer, use_raw=boolean("use_raw", use_raw),
               transforms=False)
    if inplace:
        return None
    return work.obs[_qc_obs_columns(ranks, names, log1p)], work.var[_qc_var_columns(log1p)]


def _qc_var_names(adata: AnnData, qc_vars) -> list[str]:
    """scanpy's ``qc_vars`` (a bool var column, or a list of them) of a container; the dict form ``{"mt": "MT-"}``
    makes the column (true for the genes whose name starts with the prefix) in var first."""
    if isinstance(qc_vars, str):
        qc_vars = [qc_vars]
    if isinstance(qc_vars, Mapping):
        for name, prefix in qc_vars.items():
            if not isinstance(prefix, str):
                raise TypeError(f"qc_vars[{name!r}] must be a gene-name prefix (str), got {prefix!r}")
            adata.var[text("qc_vars name", name)] = adata.var_names.str.startswith(prefix)
    return [text("qc_vars entry", name) for name in qc_vars]


def _percent_top(percent_top) -> list[int]:
    """scanpy's ``percent_top`` sorted (as scanpy sorts it); ``None`` or empty: no top-n columns."""
    if percent_top is None:
        return []
    return sorted(_catalog.check("calculate_qc_metrics", "percent_top", percent_top))


def _qc_obs_columns(ranks, names, log1p) -> list[str]:
    logged = (lambda c: [c, f"log1p_{c}"]) if log1p else (lambda c: [c])
    cols = [*logged("n_genes_by_counts"), *logged("total_counts")]
    cols += [f"pct_counts_in_top_{n}_genes" for n in ranks]
    for name in names:
        cols += [*logged(f"total_counts_{name}"), f"pct_counts_{name}"]
    return cols


def _qc_var_columns(log1p) -> list[str]:
    cols = ["n_cells_by_counts", "mean_counts", "log1p_mean_counts", "pct_dropout_by_counts", "total_counts",
            "log1p_total_counts"]
    return cols if log1p else [c for c in cols if not c.startswith("log1p_")]


# -------------------------------------------------------------------------------------------------- normalize, log1p

_NORM_FACTOR_KEY = "_scflux_norm_factor"


@_steps.on_files(inplace=True, copy=False)
def normalize_total(data, *, target_sum=None, exclude_highly_expressed=False, max_fraction=0.05, key_added=None,
                    layer=None, inplace=True, copy=False, out=None):
    """scanpy's ``sc.pp.normalize_total`` (command ``scflux normalize``).

    With ``inplace=False`` returns ``dict(X=..., norm_factor=...)`` as scanpy: X (a scipy CSR matrix) read from the
    result, ``norm_factor`` each cell's total divided by the target sum. (With ``inplace=False`` and ``out=`` the
    file at ``out`` holds that factor as obs ``key_added``, or ``_scflux_norm_factor``.)
    """
    where = "normalize_total"
    inplace, copy = boolean("inplace", inplace), boolean("copy", copy)
    if copy and not inplace:
        raise ValueError("`copy=True` cannot be used with `inplace=False`.")
    values = dict(target_sum=target_sum, exclude_highly_expressed=exclude_highly_expressed, max_fraction=max_fraction)
    arguments = _catalog.arguments(where, **values, key_added=key_added)
    if inplace:
        work = _steps.target(data, copy)
        _steps.run(work, where, arguments, layer=layer)
        return work if copy else None
    work = data._taken(None, None)
    key = arguments.setdefault("key_added", _NORM_FACTOR_KEY)
    _steps.run(work, where, arguments, layer=layer)
    return dict(X=work.X if layer is None else work.layers[layer], norm_factor=work.obs[key].to_numpy())


@_steps.on_files(copy=False)
def log1p(data, *, base=None, copy=False, chunked=None, chunk_size=None, layer=None, obsm=None, out=None):
    """scanpy's ``sc.pp.log1p`` (command ``scflux log1p``): X becomes ln(1 + X), or log(1 + X) / log(base)."""
    where = "log1p"
    require(where, obsm=(obsm, None), chunk_size=(chunk_size, None))
    if chunked not in (None, False):
        raise unsupported(where, "chunked", chunked, "scflux always streams X in blocks")
    copy = boolean("copy", copy)
    work = _steps.target(data, copy)
    _steps.run(work, where, _catalog.arguments(where, base=base), layer=layer)
    return work if copy else None


# -------------------------------------------------------------------------------------------------------------- hvg

@_steps.on_files(inplace=True)
def highly_variable_genes(data, *, layer=None, n_top_genes=None, min_disp=0.5, max_disp=np.inf, min_mean=0.0125,
                          max_mean=3, span=0.3, n_bins=20, flavor="seurat", subset=False, inplace=True,
                          batch_key=None, check_values=True, out=None):
    """scanpy's ``sc.pp.highly_variable_genes`` (command ``scflux hvg``), flavors ``seurat``, ``cell_ranger`` and
    ``seurat_v3``.

    With ``inplace=False`` returns the DataFrame of the columns scanpy returns (only the highly variable genes
    when ``subset=True``); else adds them to var (``subset=True`` keeps only the highly variable genes).
    ``check_values=False`` drops the engine's warning about non-integer counts (seurat_v3).
    """
    where = "highly_variable_genes"
    subset, inplace = boolean("subset", subset), boolean("inplace", inplace)
    check_values = boolean("check_values", check_values)
    values = dict(flavor=flavor, n_top_genes=n_top_genes, min_disp=min_disp, max_disp=max_disp, min_mean=min_mean,
                  max_mean=max_mean, span=span, n_bins=n_bins, batch_key=batch_key)
    arguments = _catalog.arguments(where, **values)
    work = data if inplace else data._taken(None, None)
    with warnings.catch_warnings():
        if not check_values:
            warnings.filterwarnings("ignore", message=".*integer.*")
        _steps.run(work, where, arguments, obs_columns=[batch_key] if batch_key is not None else [],
                   layer=layer, transforms=False)
    if inplace:
        if subset:
            _steps.subset_var(work, work.var["highly_variable"].to_numpy())
        return None
    df = work.var[_hvg_columns(flavor, batch_key is not None)]
    return df[df["highly_variable"].to_numpy()] if subset else df


def _hvg_columns(flavor: str, batched: bool) -> list[str]:
    if flavor == "seurat_v3":
        return ["highly_variable", "highly_variable_rank", "means", "variances", "variances_norm",
                *(["highly_variable_nbatches"] if batched else [])]
    return ["means", "dispersions", "dispersions_norm",
            *(["highly_variable_nbatches", "highly_variable_intersection"] if batched else []), "highly_variable"]


# -------------------------------------------------------------------------------------------------------------- pca

#: scanpy's exact solvers, which scflux runs as its exact one (covariance_eigh).
_EXACT_SOLVERS = ("arpack", "full")


@_steps.on_files(copy=False)
def pca(data, n_comps=None, *, layer=None, zero_center=True, svd_solver=None, chunked=False, chunk_size=None,
        random_state=0, return_info=False, mask_var=_empty, use_highly_variable=None, dtype="float32",
        key_added=None, copy=False, out=None):
    """scanpy's ``sc.pp.pca`` with ``zero_center=True`` (command ``scflux pca``): obsm ``X_pca``, varm ``PCs``,
    uns ``pca``.

    ``svd_solver``: ``None``/``"auto"`` let scflux choose (exact up to a few thousand genes);
    ``"arpack"``, ``"covariance_eigh"`` and ``"full"`` (all exact up to numerical error) run ``covariance_eigh``;
    ``"randomized"`` a fixed-seed randomized subspace iteration. ``mask_var``: scanpy's default uses
    ``var["highly_variable"]`` when present; ``None`` all genes; a column name that bool var column.
    ``return_info`` only matters for array input in scanpy, which scflux never gets.
    """
    where = "pca"
    require(where, zero_center=(zero_center, True), chunked=(chunked, False),
            chunk_size=(chunk_size, None), key_added=(key_added, None))
    if np.dtype(dtype) != np.float32:
        raise unsupported(where, "dtype", dtype, "X_pca is written as float32")
    copy = boolean("copy", copy)
    if svd_solver in _EXACT_SOLVERS:
        svd_solver = "covariance_eigh"
    elif svd_solver == "randomized" and random_state != 0:
        raise unsupported(where, "random_state", random_state, "the randomized solver uses its own fixed seed")
    elif svd_solver is not None and svd_solver not in _catalog.parameter(where, "svd_solver")["choices"]:
        raise unsupported(where, "svd_solver", svd_solver)
    arguments = _catalog.arguments(where, n_comps=n_comps, svd_solver=svd_solver)
    mask = _mask_var(mask_var, use_highly_variable)
    if mask is _empty:
        columns = ["highly_variable"] if "highly_variable" in data.var.columns else []
    elif mask is None:
        columns, arguments["use_highly_variable"] = [], False
    else:
        columns, arguments["mask_var"] = [mask], mask
    work = _steps.target(data, copy)
    _steps.run(work, where, arguments, var_columns=columns, layer=layer, transforms=False)
    return work if copy else None


def _mask_var(mask_var, use_highly_variable):
    """scanpy's ``mask_var`` / deprecated ``use_highly_variable`` as one value: ``_empty`` (highly_variable when
    var has it), ``None`` (every gene) or the name of a bool var column."""
    if mask_var is not _empty and use_highly_variable is not None:
        raise ValueError("Either use `mask_var` or `use_highly_variable`, not both.")
    if use_highly_variable is not None:
        warnings.warn("Argument `use_highly_variable` is deprecated, consider using the mask argument. "
                      'Use_highly_variable=True can be called through mask_var="highly_variable". '
                      "Use_highly_variable=False can be called through mask_var=None",
                      FutureWarning, stacklevel=3)
        mask_var = "highly_variable" if boolean("use_highly_variable", use_highly_variable) else None
    if mask_var is not _empty and mask_var is not None and not isinstance(mask_var, str):
        raise unsupported("pca", "mask_var", type(mask_var).__name__, "give the name of a bool var column")
    return mask_var


# ------------------------------------------------------------------------------------------------------------ scale

@_steps.on_files(copy=False)
def scale(data, *, zero_center=True, max_value=None, copy=False, layer=None, obsm=None, mask_obs=None, out=None):
    """scanpy's ``sc.pp.scale`` (command ``scflux scale``): each gene to unit variance (and zero mean), var
    ``mean`` and ``std``; centring makes X dense float64, as in scanpy."""
    require("scale", obsm=(obsm, None), mask_obs=(mask_obs, None))
    work = _steps.target(data, boolean("copy", copy))
    _steps.run(work, "scale", _catalog.arguments("scale", zero_center=zero_center, max_value=max_value), layer=layer)
    return work if copy else None


# -------------------------------------------------------------------------------------------------------- neighbors

@_steps.on_files(copy=False)
def neighbors(adata, n_neighbors=15, n_pcs=None, *, use_rep=None, knn=True, method="umap", transformer=None,
              metric="euclidean", metric_kwds=None, random_state=0, key_added=None, copy=False, out=None):
    """scanpy's ``sc.pp.neighbors`` (command ``scflux neighbors``): each cell's ``n_neighbors`` nearest cells in
    obsm ``X_pca`` (or ``use_rep``, its first ``n_pcs`` columns), obsp ``distances`` and ``connectivities``
    (``method="umap"``: UMAP's fuzzy union; ``"gauss"``: the Gaussian kernel) and uns ``neighbors``; with
    ``key_added``, ``KEY_distances``, ``KEY_connectivities`` and uns ``KEY``. X is not read. Returns ``None``, or the
    AnnData with ``copy=True``.
    """
    where = "neighbors"
    require(where, knn=(knn, True), transformer=(transformer, None))
    if metric_kwds:
        raise unsupported(where, "metric_kwds", metric_kwds, "euclidean and cosine take none")
    copy = boolean("copy", copy)
    arguments = _catalog.arguments(where, n_neighbors=n_neighbors, n_pcs=n_pcs, use_rep=use_rep, method=method,
                                   metric=metric, random_state=random_state, key_added=key_added)
    rep = "X_pca" if use_rep is None else use_rep
    if rep != "X" and rep not in adata.obsm:
        raise KeyError(f"obsm has no {rep!r} (it has: {', '.join(adata.obsm) or 'none'})"
                       + (": run scflux.pp.pca first, or give use_rep" if use_rep is None else ""))
    work = _steps.target(adata, copy)
    _steps.run(work, where, arguments, transforms=False, elements={"obsm": [] if rep == "X" else [rep]},
               reads_x=rep == "X")
    return work if copy else None


# ---------------------------------------------------------------------------------------------------------- filters

@_steps.on_files(inplace=True, copy=False)
def filter_cells(data, *, min_counts=None, min_genes=None, max_counts=None, max_genes=None, inplace=True,
                 copy=False, out=None):
    """scanpy's ``sc.pp.filter_cells`` (command ``scflux filter-cells``): one criterion per call; obs ``n_counts``
    or ``n_genes``. ``inplace=False`` returns ``(cell_subset, number_per_cell)`` for all cells."""
    return _filter("cells", data, dict(min_counts=min_counts, min_genes=min_genes, max_counts=max_counts,
                                       max_genes=max_genes), inplace=inplace, copy=copy)


@_steps.on_files(inplace=True, copy=False)
def filter_genes(data, *, min_counts=None, min_cells=None, max_counts=None, max_cells=None, inplace=True,
                 copy=False, out=None):
    """scanpy's ``sc.pp.filter_genes`` (command ``scflux filter-genes``): one criterion per call; var ``n_counts``
    or ``n_cells``. ``inplace=False`` returns ``(gene_subset, number_per_gene)`` for all genes."""
    return _filter("genes", data, dict(min_counts=min_counts, min_cells=min_cells, max_counts=max_counts,
                                       max_cells=max_cells), inplace=inplace, copy=copy)


def _filter(what: str, adata: AnnData, criteria: dict, *, inplace, copy):
    given = {name: value for name, value in criteria.items() if value is not None}
    if len(given) != 1:
        raise ValueError("Only provide one of the optional parameters "
                         + ", ".join(f"`{name}`" for name in criteria) + " per call.")
    (name, value), = given.items()
    value = number(name, value)
    by_counts = name.endswith("_counts")
    if not by_counts:  # a count of genes or cells: n >= 220.5 is n >= 221, n <= 220.5 is n <= 220
        value = math.ceil(value) if name.startswith("min") else math.floor(value)
    inplace, copy = boolean("inplace", inplace), boolean("copy", copy)
    axis = "obs" if what == "cells" else "var"
    column = "total_counts" if by_counts else ("n_genes_by_counts" if what == "cells" else "n_cells_by_counts")
    arguments = _catalog.arguments(f"filter_{what}", **{name: value})
    if inplace:
        work = _steps.target(adata, copy)
        _steps.run(work, f"filter_{what}", arguments)
        return work if copy else None
    work = adata._taken(None, None)
    _steps.run(work, "calculate_qc_metrics", {"percent_top": [], "log1p": False}, transforms=False)
    numbers = getattr(work, axis)[column].to_numpy()
    if not by_counts:
        numbers = numbers.astype(np.int64)
    return (numbers >= value if name.startswith("min") else numbers <= value), numbers


# ------------------------------------------------------------------------------------------------------- pseudobulk

@_steps.on_files()
def pseudobulk(adata, sample_col, groups_col, layer=None, raw=False, empty=False, mode="sum", skip_checks=False,
               bsize=250_000, verbose=False, *, min_cells=0, min_counts=0, out=None):
    """decoupler 2.1's ``dc.pp.pseudobulk`` (command ``scflux pseudobulk``): one profile per (group, sample) pair,
    named ``{sample}_{group}``, ordered by group then sample; X dense float64, obs ``psbulk_cells`` and
    ``psbulk_counts``, layers ``psbulk_props``. Returns a new AnnData (backed on ``out`` when given).

    The genes keep the input's order (decoupler 2.1.1 shuffles them; 2.1.3 and later keep them). decoupler's input
    checks of ``skip_checks=False`` (no negative values; whole numbers for ``mode="sum"``) are not made; ``bsize``
    (decoupler's batch size for backed data) has no effect, X is streamed anyway. ``min_cells`` and ``min_counts``
    (scflux's, as ``dc.pp.filter_samples``) drop the pairs with fewer cells or counts.
    """
    where = "pseudobulk"
    require(where, empty=(empty, False))
    text("sample_col", sample_col)
    if groups_col is None or isinstance(groups_col, list) or groups_col == sample_col:
        raise unsupported(where, "groups_col", groups_col, "scflux needs one obs column other than sample_col")
    text("groups_col", groups_col)
    boolean("skip_checks", skip_checks)
    count("bsize", bsize, minimum=1)
    values = dict(sample_col=sample_col, groups_col=groups_col, mode=mode, min_cells=min_cells, min_counts=min_counts)
    boolean("verbose", verbose)
    return _steps.new_dataset(adata, where, _catalog.arguments(where, **values), layer=layer,
                              use_raw=boolean("raw", raw))
