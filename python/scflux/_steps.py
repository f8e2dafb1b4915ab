"""How a step runs on a :class:`scflux.AnnData`: the engine gets X (or the layer, or raw) and the columns the step
reads as the user holds them now, and what the step makes is put into the container, or into a copy, as scanpy's
``inplace``/``copy`` say. A step on a file (:func:`on_file`) is the same step on the file's container, written.
"""

from __future__ import annotations

import numpy as np

import functools
import inspect
import os
from pathlib import Path
from typing import Any

from . import _engine, _exchange
from ._anndata import AnnData, XView, _read
from ._files import read_adata, refresh, release, source


def run(adata: AnnData, function: str, arguments: dict, *, obs_columns=(), var_columns=(), layer=None,
        use_raw: bool = False, transforms: bool = True, elements=None, reads_x: bool = True) -> AnnData:
    """Runs the catalog's ``function`` on ``adata`` and changes ``adata`` as scanpy's function changes its AnnData.

    ``obs_columns``/``var_columns``: the columns the step reads (``"all"`` for every one). ``layer``: the step reads
    that layer instead of X, and a step that transforms (``transforms``) leaves its result there. ``use_raw``: the
    step reads raw's X and var; what it adds to obs and uns is put into ``adata``. ``elements``: the obsm, obsp
    and uns entries the step reads (``{"obsm": ["X_pca"]}``), which come back as they went; ``reads_x=False``
    for a step that reads none of X (the graph steps), which then runs on a container without one too.
    """
    x, var = _input(adata, function, layer, use_raw) if reads_x else (adata._x, None)
    _require_columns(adata, obs_columns, var_columns, var)
    j = adata._java(x=x, obs_columns=obs_columns, var_columns=var_columns, tag=True, var=var, elements=elements)
    session = _engine.session()
    result = _engine.wait(_engine.call(session.run, function, j, _exchange.arguments(arguments)))
    if use_raw and result.pending() is not None:  # raw's columns cannot wait in the container: put them now
        result = _engine.wait(_engine.call(session.complete, result))
    adata._absorb(result, obs_columns=obs_columns, var_columns=var_columns,
                  into_layer=layer if transforms else None, keep_x=use_raw or not transforms and layer is not None,
                  var_axis=not use_raw, elements=elements)
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


def on_files(**modifying):
    """Makes a step written for the container take a file too: ``data`` (the step's first parameter) a path or a
    backed AnnData, as a thin use of the container. The file is opened, the step runs on its container as on any,
    and what it made is written, once.

    ``modifying``: the step's flags (``inplace=True``, ``copy=False``) as they are for scanpy's "modify the data";
    none for a step that makes a new dataset. A call with those values is written to ``out``, or without it (or with
    ``out`` naming the input) over the input, atomically; a backed AnnData given as ``data`` then shows the new file.
    A Cell Ranger file cannot be rewritten: ``out`` is needed.

    A call with other values (``copy=True``, ``inplace=False``, a new dataset) returns its result and leaves the input
    as it is. An AnnData it returns is written to ``out`` and returned backed on it, or without ``out`` read into
    memory; another value is returned with any view in it read into memory, and ``out`` then gets what the
    modifying call makes of the file. ``out`` with a container is refused (the container is written with
    ``write_h5ad``).
    """
    def decorate(step):
        signature = inspect.signature(step)
        first = next(iter(signature.parameters))

        @functools.wraps(step)
        def call(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            data, out = bound.arguments[first], bound.arguments["out"]
            if isinstance(data, AnnData):
                if out is not None:
                    raise TypeError(f"out= is for a file's result; write this container with "
                                    f"adata.write_h5ad({str(out)!r})")
                return step(*bound.args, **bound.kwargs)
            src = source(data, first)
            out_path = None if out is None else Path(os.fspath(out)).expanduser()
            returns = not modifying or any(bound.arguments[f] != v for f, v in modifying.items())
            if returns and out_path is not None:
                refuse_input_as_out(out, [src])

            def run(adata: AnnData, **flags):
                bound.arguments.update({first: adata, "out": None, **flags})
                return step(*bound.args, **bound.kwargs)

            if not returns and (out_path is None or same_file(out_path, src.path)):
                _rewrite(src, run)
                return None
            adata = _read(src.path, None, True)
            value = run(adata)
            if isinstance(value, AnnData):
                return returned(value, out)
            if out_path is not None:
                if returns:
                    run(adata, **modifying)
                adata._write(out_path, False)
            return _in_memory(value)

        return call

    return decorate


def returned(adata: AnnData, out) -> Any:
    """A new dataset made of files, as scanpy returns it: written to ``out`` and an AnnData backed on it, or
    without ``out`` an AnnData in memory."""
    if out is None:
        return adata.to_memory()
    path = Path(os.fspath(out)).expanduser()
    adata._write(path, False)
    return read_adata(path, False)


def _rewrite(src, run) -> None:
    """Runs a modifying step (``run(container)``) on the container of the file ``src`` and rewrites the file with
    what it made. A backed AnnData of the file is closed first (h5py's ``"r+"`` writes to the file as it closes)
    and pointed at the file again afterwards, rewritten or not."""
    if src.cellranger:
        raise ValueError(f"{src.path} is a Cell Ranger .h5 file, which scflux cannot rewrite in place: "
                         "pass out=...h5ad to write the result as a new .h5ad")
    if src.adata is not None:
        release(src.adata)
    try:
        adata = _read(src.path, None, True)
        run(adata)
        adata._write(src.path, False, in_place=True)
    finally:
        if src.adata is not None:
            refresh(src.adata, src.path)


def _in_memory(value):
    """What a step returns, with the views of X in it (normalize_total's ``X``) read into memory."""
    if isinstance(value, XView):
        return value.to_memory()
    if isinstance(value, dict):
        return {k: _in_memory(v) for k, v in value.items()}
    return value


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` exists and is the file ``b`` (by any path, symbolic or hard link)."""
    try:
        return a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def refuse_input_as_out(out, sources) -> None:
    """``ValueError`` when ``out`` names one of ``sources`` (by path, symlink or hard link), for a call that returns
    its result and must leave its inputs unchanged."""
    out_path = Path(os.fspath(out)).expanduser()
    for src in sources:
        if same_file(out_path, src.path):
            raise ValueError(f"out={str(out)!r} is the input {src.path}, which this call leaves unchanged (it returns "
                             "its result: copy=True, inplace=False, or a new dataset): give out= another file, or "
                             "drop out= and use copy=False / inplace=True to rewrite the input")
