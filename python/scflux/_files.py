"""The files scflux reads and writes, seen from Python.

What a ``data`` argument is (a path or a backed AnnData, see :func:`source`), whether it is a Cell Ranger ``.h5``,
which obs/var columns it has (read from the HDF5 attributes, never the matrix), where temporary outputs go, and how
results are read back: annotations as pandas DataFrames through anndata's element reader, whole files as AnnData,
and a backed AnnData pointed again at its file after the command line rewrote it.
"""

from __future__ import annotations

import errno
import os
import secrets
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

import anndata
import h5py
import pandas as pd

try:  # anndata >= 0.11
    from anndata.io import read_elem
except ImportError:  # anndata 0.8 - 0.10; 0.8 warns about pytorch when anndata.experimental is imported
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from anndata.experimental import read_elem


@dataclass(frozen=True)
class Source:
    """One input of a command: its path, the backed AnnData it came from (to refresh after an in-place rewrite)
    and whether it is a Cell Ranger ``.h5`` (which cannot be rewritten in place)."""

    path: Path
    adata: anndata.AnnData | None
    cellranger: bool


def source(data, what: str = "data") -> Source:
    """The :class:`Source` of a ``data`` argument: a path (``str`` or ``os.PathLike``) or a backed AnnData
    (``anndata.read_h5ad(path, backed="r")``). A missing file raises ``FileNotFoundError`` here, before any Java."""
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
        raise TypeError(f"{what} must be a path (str or os.PathLike) or a backed AnnData, "
                        f"not {type(data).__name__}")
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
    except OSError:  # not HDF5: the command line will say what it is
        return False


def _column_names(frame) -> list[str]:
    """The columns of an obs/var element: a group's ``column-order``, or the fields of anndata < 0.7's compound
    dataset (without its ``index``)."""
    if isinstance(frame, h5py.Dataset):
        return [n for n in (frame.dtype.names or ()) if n != "index"]
    if not isinstance(frame, h5py.Group):
        return []
    return [c.decode() if isinstance(c, bytes) else str(c) for c in list(frame.attrs.get("column-order", []))]


def columns(src: Source, axis: str) -> list[str]:
    """The obs (``axis="obs"``) or var column names of an input, from the file's attributes. A Cell Ranger file
    has no obs columns and var columns ``gene_ids``, ``feature_types``, ``genome``."""
    if src.cellranger:
        return [] if axis == "obs" else ["gene_ids", "feature_types", "genome"]
    with h5py.File(src.path, "r") as f:
        return _column_names(f.get(axis))


def require_column(src: Source, axis: str, name: str, parameter: str) -> None:
    """``KeyError`` unless the input has the obs/var column ``name`` (what ``parameter`` of the call names)."""
    have = columns(src, axis)
    if name not in have:
        raise KeyError(f"{parameter}={name!r} is not an {axis} column of {src.path} ({axis} columns: "
                       f"{', '.join(have) if have else 'none'})")


#: The longest file name, in bytes, that Linux's and macOS's file systems take.
MAX_NAME_BYTES = 255


def temporary_name(target_name: str, pid: int, random: int) -> str:
    """The temporary name of a file written for ``target_name`` by the process ``pid``: scflux's one rule, which
    Java's ``io.scflux.core.TemporaryName`` spells too, ``.<target_name>.scflux-<pid>-<hex of random>.tmp``, with
    ``target_name`` cut (between characters) to the prefix that keeps the name within :data:`MAX_NAME_BYTES` bytes.

    Named so, a temporary file that a killed Python call leaves is removed by the next write of the command line in
    its folder, as the command line's own are (the owner's pid is no longer alive)."""
    mark = f".scflux-{pid}-{random & 0xFFFF_FFFF_FFFF_FFFF:x}.tmp"
    room = MAX_NAME_BYTES - 1 - len(mark)
    kept, used = [], 0
    for ch in target_name:
        size = len(os.fsencode(ch))
        if used + size > room:
            break
        kept.append(ch)
        used += size
    return "." + "".join(kept) + mark


def temporary_path(near: Path) -> Path:
    """A new name for a temporary output beside ``near`` (hidden), or in the system's temporary folder when that
    folder is not writable, by :func:`temporary_name`'s rule with this process's pid. Nothing is created: the
    command line writes the file (under a temporary name of its own, renamed onto this one when complete), and the
    caller deletes it."""
    folder = near.parent if os.access(near.parent, os.W_OK) else Path(tempfile.gettempdir())
    while True:
        path = folder / temporary_name(near.name, os.getpid(), secrets.randbits(64))
        if not os.path.lexists(path):
            return path


def read_frame(path: Path, axis: str, names: list[str] | None = None) -> pd.DataFrame:
    """The obs or var DataFrame of an ``.h5ad`` (only the ``names`` columns, in that order, when given), read
    without touching X."""
    with h5py.File(path, "r") as f:
        frame = read_elem(f[axis])
    if names is not None:
        missing = [n for n in names if n not in frame.columns]
        if missing:
            raise KeyError(f"{path}: {axis} lacks the columns {missing} that the command should have written")
        frame = frame[names]
    return frame


def read_x(path: Path):
    """X of an ``.h5ad`` as anndata reads it (a scipy CSR matrix for a CSR X)."""
    with h5py.File(path, "r") as f:
        return read_elem(f["X"])


def read_adata(path: Path, temporary: bool) -> anndata.AnnData:
    """A result file as an AnnData: in memory when it is a temporary file (deleted next), else backed on it in
    mode ``"r"``."""
    return anndata.read_h5ad(path) if temporary else anndata.read_h5ad(path, backed="r")


def release(adata: anndata.AnnData) -> None:
    """Closes the file of a backed AnnData before the command line replaces it."""
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
