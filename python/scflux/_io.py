"""``scflux.concat`` and ``scflux.read_10x_h5``: anndata's ``ad.concat`` and scanpy's ``sc.read_10x_h5``, on the
engine's containers.

Both make a new dataset, so they never rewrite an input. ``read_10x_h5`` returns a container (X stays in the
file), or with ``out=`` writes it as an ``.h5ad`` there and returns an AnnData backed on it. ``concat`` of
containers is a container; of files (any input a path) its result is written to ``out=`` and returned backed on it,
or without ``out`` read into memory, as anndata returns an in-memory AnnData.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import _catalog, _engine, _exchange, _steps
from ._anndata import AnnData, _read
from ._files import source
from ._params import require, text, unsupported

__all__ = ["concat", "read_10x_h5"]


def concat(adatas, *, axis=0, join="inner", merge=None, uns_merge=None, label=None, keys=None, index_unique=None,
           fill_value=None, pairwise=False, out=None):
    """anndata's ``ad.concat`` along obs (command ``scflux concat``).

    ``adatas`` is a list of :class:`scflux.AnnData` containers, paths or backed AnnData objects, or a dict
    ``key -> one of them`` whose keys are the keys, as in anndata. X stays lazy: each input's X is read in turn when
    the result's blocks are. Genes: ``join="inner"`` keeps those every file has, ``"outer"`` all of them (zeros, or
    ``fill_value``, where a file lacks one); var annotations are dropped (``merge=None``).
    """
    where = "concat"
    if isinstance(adatas, Mapping):
        if keys is not None:
            raise TypeError("Cannot specify categories in both mapping keys and using `keys`. "
                            "Only specify this once.")
        keys, adatas = list(adatas.keys()), list(adatas.values())
    else:
        adatas = list(adatas)
    if axis not in (0, "obs"):
        raise unsupported(where, "axis", axis, "scflux concatenates cells (axis=0)")
    require(where, merge=(merge, None), uns_merge=(uns_merge, None), pairwise=(pairwise, False))
    if not adatas:
        raise ValueError("No objects to concatenate.")
    if keys is not None:
        keys = [str(k) for k in keys]
        if len(keys) != len(adatas):
            raise ValueError(f"keys has {len(keys)} entries for {len(adatas)} objects")
    arguments = _catalog.arguments(where, join=join, label=label, keys=keys, index_unique=index_unique,
                                   fill_value=fill_value)
    files = [source(a, f"adatas[{i}]") for i, a in enumerate(adatas) if not isinstance(a, AnnData)]
    if not files and out is not None:
        raise TypeError(f"out= is for the concatenation of files; write this one with .write_h5ad({str(out)!r})")
    if out is not None:
        _steps.refuse_input_as_out(out, files)
    opened = iter(_read(src.path, None, True) for src in files)
    containers = [a if isinstance(a, AnnData) else next(opened) for a in adatas]
    for a in containers:
        a._settle()
    JAnnData = _engine.java("io.scflux.core.anndata.AnnData")
    inputs = _engine.jpype().JArray(JAnnData)([a._full_java() for a in containers])
    result = AnnData._of(_engine.call(_engine.session().concat, inputs, _exchange.arguments(arguments)))
    return _steps.returned(result, out) if files else result


def read_10x_h5(filename, *, genome=None, gex_only=True, backup_url=None, out=None):
    """scanpy's ``sc.read_10x_h5``: a Cell Ranger HDF5 matrix (2 or 3+) as a :class:`scflux.AnnData` (the command
    line's ``scflux convert`` with ``out=``).

    ``gex_only`` keeps only the "Gene Expression" features (the command line's default; ``gex_only=False`` is its
    ``--all-features``), ``genome`` selects one genome (``--genome``). Unlike scanpy, which leaves repeated gene
    names for ``var_names_make_unique``, scflux makes them unique as that call would (the call is then a no-op).
    With ``out=...h5ad`` the converted file stays and the AnnData returned is backed on it.
    """
    where = "read_10x_h5"
    require(where, backup_url=(backup_url, None))
    if not isinstance(gex_only, bool):
        raise TypeError(f"gex_only must be True or False, got {gex_only!r}")
    adata = _read(filename, None if genome is None else text("genome", genome), gex_only)
    return adata if out is None else _steps.returned(adata, out)
