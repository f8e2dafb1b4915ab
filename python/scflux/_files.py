"""The files of the path-based calls, seen from Python.

What a ``data`` argument is (a path or a backed AnnData, see :func:`source`), whether it is a Cell Ranger ``.h5``,
how a result file is handed back (an AnnData backed on it), and a backed AnnData pointed again at its file after
a call rewrote it.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

import anndata
import h5py


@dataclass(frozen=True)
class Source:
    """One input of a command: its path, the backed AnnData it came from (to refresh after an in-place rewrite)
    and whether it is a Cell Ranger ``.h5`` (which cannot be rewritten in place)."""

    path: Path
    adata: anndata.AnnData | None
    cellranger: bool


def source(data, what: str = "data") -> Source:
    """The :class:`Source` of a ``data`` argument: a path (``str`` or ``os.PathLike``) or a backed AnnData
    (``anndata.read_h5ad(path, backed="r")``). A missing file raises ``FileNotFoundError`` here, before the engine
    opens it."""
    adata = None
    if isinstance(data, anndata.AnnData):
        if data.is_view:
            raise TypeError(f"{what}: scflux works on files, and a view of an AnnData is not one: pass the backed "
                            "AnnData itself or a path, or open the file with scflux.read_h5ad, whose container "
                            "selects lazily (adata[mask])")
        if not data.isbacked:
            raise TypeError(f"{what}: scflux works on files, and this AnnData is in memory: write it "
                            "(adata.write_h5ad(path)) and pass the path, or open it with scflux.read_h5ad(path) "
                            "(X stays in the file) or anndata.read_h5ad(path, backed='r')")
        adata = data
        path = Path(data.filename)
    elif isinstance(data, (str, os.PathLike)):
        path = Path(os.fspath(data))
    else:
        raise TypeError(f"{what} must be a scflux.AnnData (scflux.read_h5ad), a path (str or os.PathLike) or a "
                        f"backed AnnData, not {type(data).__name__}")
    path = path.expanduser()
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    return Source(path, adata, is_cellranger(path))


def is_cellranger(path: Path) -> bool:
    """Whether ``path`` is a Cell Ranger HDF5 matrix, by content: a ``/matrix`` group (Cell Ranger 3+), or a root
    without ``obs``/``var`` whose group holds ``barcodes`` (Cell Ranger 2, one group per genome)."""
    try:
        with h5py.File(path, "r") as f:
            if "obs" in f or "var" in f:
                return False
            if isinstance(f.get("matrix"), h5py.Group):
                return True
            return any(isinstance(g, h5py.Group) and "barcodes" in g for g in f.values())
    except OSError:  # not HDF5: the engine will say what it is
        return False


def read_adata(path: Path, temporary: bool) -> anndata.AnnData:
    """A result file as an AnnData: in memory when it is a temporary file (deleted next), else backed on it in
    mode ``"r"``."""
    return anndata.read_h5ad(path) if temporary else anndata.read_h5ad(path, backed="r")


def release(adata: anndata.AnnData) -> None:
    """Closes the file of a backed AnnData before a call rewrites it."""
    if adata.isbacked and adata.file.is_open:
        adata.file.close()


def refresh(adata: anndata.AnnData, path: Path) -> None:
    """Points a backed AnnData at the (rewritten) file ``path`` again: obs, var, uns, obsm, varm, obsp, varp,
    layers, raw and the shape as the file now holds them, X backed, mode ``"r"``.

    The same Python object is re-initialized (``AnnData.__init__`` with ``filename``), as
    ``anndata.read_h5ad(path, backed="r")`` builds a new one, so every reference the user holds sees the new file.
    """
    fresh = anndata.read_h5ad(path, backed="r")
    try:
        parts = dict(obs=fresh.obs, var=fresh.var, uns=dict(fresh.uns), obsm=dict(fresh.obsm),
                     varm=dict(fresh.varm), obsp=dict(fresh.obsp), varp=dict(fresh.varp),
                     layers=dict(fresh.layers))
        if fresh.raw is not None:
            parts["raw"] = dict(var=fresh.raw.var, varm=dict(fresh.raw.varm))
    finally:
        fresh.file.close()
    release(adata)
    adata.__init__(**parts, filename=path, filemode="r")
