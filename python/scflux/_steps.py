"""How a step runs on a :class:`scflux.AnnData`: the engine gets X (or the layer, or raw) and the columns the step
reads as the user holds them now, and what the step makes is put into the container, or into a copy, as scanpy's
``inplace``/``copy`` say.
"""

from __future__ import annotations

import numpy as np

from . import _engine, _exchange
from ._anndata import AnnData


def run(adata: AnnData, function: str, arguments: dict, *, obs_columns=(), var_columns=(), layer=None,
        use_raw: bool = False, transforms: bool = True) -> AnnData:
    """Runs the catalog's ``function`` on ``adata`` and changes ``adata`` as scanpy's function changes its AnnData.

    ``obs_columns``/``var_columns``: the columns the step reads (``"all"`` for every one). ``layer``: the step reads
    that layer instead of X, and a step that transforms (``transforms``) leaves its result there. ``use_raw``: the
    step reads raw's X and var; what it adds to obs and uns is put into ``adata``.
    """
    x, var = _input(adata, function, layer, use_raw)
    _require_columns(adata, obs_columns, var_columns, var)
    j = adata._java(x=x, obs_columns=obs_columns, var_columns=var_columns, tag=True, var=var)
    session = _engine.session()
    result = _engine.wait(_engine.call(session.run, function, j, _exchange.arguments(arguments)))
    if use_raw and result.pending() is not None:  # raw's columns cannot wait in the container: put them now
        result = _engine.wait(_engine.call(session.complete, result))
    adata._absorb(result, obs_columns=obs_columns, var_columns=var_columns,
                  into_layer=layer if transforms else None, keep_x=use_raw or not transforms and layer is not None,
                  var_axis=not use_raw)
    return adata


def new_dataset(adata: AnnData, function: str, arguments: dict, *, layer=None, use_raw: bool = False) -> AnnData:
    """Runs the catalog's ``function``, which makes a new dataset of ``adata`` (pseudobulk), on every column of obs
    and var, and returns it; ``adata`` is left as it is."""
    x, var = _input(adata, function, layer, use_raw)
    adata._settle()  # every column goes: those a step left pending too
    j = adata._java(x=x, obs_columns="all", var_columns="all", var=var)
    session = _engine.session()
    return AnnData._of(_engine.wait(_engine.call(session.run, function, j, _exchange.arguments(arguments))))


def _input(adata: AnnData, function: str, layer, use_raw: bool):
    """The matrix a step reads (X, the layer or raw's X), and raw's var when it reads raw (else None)."""
    if layer is not None and use_raw:
        raise ValueError("Cannot specify `layer` and have `use_raw=True`.")
    if layer is not None:
        if layer not in adata.layers:
            raise KeyError(f"layer {layer!r} is not in layers (it has: {', '.join(adata.layers) or 'none'})")
        return adata.layers._values[layer], None
    if use_raw:
        if adata.raw is None:
            raise ValueError("Received `use_raw=True`, but `adata.raw` is empty.")
        return adata.raw._source, adata.raw.var
    if adata._x is None:
        raise ValueError(f"{function} needs X, and this container has none")
    return adata._x, None


def _require_columns(adata: AnnData, obs_columns, var_columns, var) -> None:
    """A KeyError naming the first column a step reads that obs (var) does not have (once the columns pending
    are put, when it is not there yet)."""
    for axis, names, held in (("obs", obs_columns, lambda: adata._obs), ("var", var_columns,
                                                                          lambda: adata._var if var is None else var)):
        if names == "all":
            continue
        if any(name not in held().columns for name in names):
            adata._settle()
        frame = held()
        for name in names:
            if name not in frame.columns:
                raise KeyError(f"{name!r} is not a column of {axis} (it has: "
                               f"{', '.join(map(str, frame.columns)) or 'none'})")


def target(adata: AnnData, copy: bool) -> AnnData:
    """What a step changes: ``adata`` itself, or with ``copy=True`` a copy (which the function returns)."""
    return adata.copy() if copy else adata


def subset_var(adata: AnnData, mask) -> None:
    """Keeps the genes of ``mask`` in ``adata`` (hvg's ``subset=True``)."""
    adata._become(adata[:, np.asarray(mask, dtype=bool)])
