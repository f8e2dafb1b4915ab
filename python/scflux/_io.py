"""``scflux.concat`` and ``scflux.read_10x_h5``: anndata's ``ad.concat`` and scanpy's ``sc.read_10x_h5`` on files.

Both make a new dataset, so they never rewrite an input: the result goes to ``out=`` (and is returned backed on it)
or to a temporary file read into memory and deleted, as anndata and scanpy return an in-memory AnnData.
"""

from __future__ import annotations

from collections.abc import Mapping

from ._anndata import _read
from ._files import read_adata, source
from . import _catalog
from ._params import require, text, unsupported
from ._run import execute

__all__ = ["concat", "read_10x_h5"]


def concat(adatas, *, axis=0, join="inner", merge=None, uns_merge=None, label=None, keys=None, index_unique=None,
           fill_value=None, pairwise=False, out=None):
    """anndata's ``ad.concat`` along obs (command ``scflux concat``) of ``.h5ad`` files.

    ``adatas`` is a list of paths (or backed AnnData objects), or a dict ``key -> path`` whose keys are the keys,
    as in anndata. Genes: ``join="inner"`` keeps those every file has, ``"outer"`` all of them (zeros, or
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
    if len(adatas) < 2:
        raise unsupported(where, "adatas", f"{len(adatas)} file", "the command line concatenates two or more files")
    if keys is not None:
        keys = [str(k) for k in keys]
        if len(keys) != len(adatas):
            raise ValueError(f"keys has {len(keys)} entries for {len(adatas)} objects")
        if any("," in k for k in keys):
            raise unsupported(where, "keys", keys, "a key with a comma cannot be passed to --keys")
    options = _catalog.options(where, join=join, label=label, keys=keys, index_unique=index_unique,
                               fill_value=fill_value)
    sources = [source(a, f"adatas[{i}]") for i, a in enumerate(adatas)]
    return execute("concat", sources, options, out=out, returns=read_adata)


def read_10x_h5(filename, *, genome=None, gex_only=True, backup_url=None, out=None):
    """scanpy's ``sc.read_10x_h5``: a Cell Ranger HDF5 matrix (2 or 3+) as an AnnData (command ``scflux convert``).

    ``gex_only`` keeps only the "Gene Expression" features (the command line's default; ``gex_only=False`` passes
    ``--all-features``), ``genome`` selects one genome (``--genome``). Unlike scanpy, which leaves repeated gene
    names for ``var_names_make_unique``, the command line makes them unique as that call would (the call is then a
    no-op). With ``out=...h5ad`` the converted file stays and the AnnData returned is backed on it; without, it is
    read into memory.
    """
    where = "read_10x_h5"
    require(where, backup_url=(backup_url, None))
    if out is None:
        if not isinstance(gex_only, bool):
            raise TypeError(f"gex_only must be True or False, got {gex_only!r}")
        return _read(filename, None if genome is None else text("genome", genome), gex_only)
    options = []
    if genome is not None:
        options += ["--genome", text("genome", genome)]
    if not isinstance(gex_only, bool):
        raise TypeError(f"gex_only must be True or False, got {gex_only!r}")
    if not gex_only:
        options.append("--all-features")
    return execute("convert", source(filename, "filename"), out=out, returns=read_adata, global_options=options)
