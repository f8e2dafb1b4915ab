"""``scflux.AnnData``: a container that behaves as an ``anndata.AnnData`` for what a notebook touches, with X a lazy
view held by the engine.

obs and var are pandas DataFrames, obsm/varm/obsp/uns numpy arrays, frames and dicts, all in memory and changed by
the user as in anndata. X, the layers and raw's X are :class:`XView`s: the counts in the file plus the transforms
staged on them (normalize_total, log1p, scale), never loaded. A step (``scflux.pp.*``, ``scflux.tl.*``) gives the
engine X and the columns it reads, as the user holds them now, and puts what it makes into the container at once;
nothing is written until :meth:`AnnData.write_h5ad`, which writes once, atomically.

Indexing (``adata[mask]``, ``adata[:, genes]``) is a lazy selection: X becomes a view of the selected rows and
columns (a normalized view keeps the statistics it was normalized with, as anndata's slicing keeps obs columns);
obs, var, obsm and varm are taken in pandas and numpy; raw keeps all its genes. ``copy()`` shares X (views never
change) and copies the annotations.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Mapping, MutableMapping
from pathlib import Path

import numpy as np
import pandas as pd

from . import _engine, _exchange

#: The obs and var columns a step carries to say which rows and columns of its input it kept.
_ROW, _COL = "\x00scflux_row", "\x00scflux_col"


class XView:
    """X (or a layer, or raw's X) as the engine holds it: a matrix in the file plus the transforms staged on it.

    It is never loaded unless asked: :meth:`to_memory` reads it into a scipy CSR matrix. Views never change, so
    :meth:`copy` returns the same view (``adata.layers["counts"] = adata.X.copy()`` keeps the counts cheaply).
    """

    def __init__(self, source) -> None:
        self._source = source

    @property
    def shape(self) -> tuple[int, int]:
        return int(self._source.nRows()), int(self._source.nCols())

    @property
    def ndim(self) -> int:
        return 2

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(str(self._source.dtype().numpyName()))

    def copy(self) -> "XView":
        return self

    def to_memory(self):
        """The matrix in memory: a numpy array for a dense matrix in memory (pseudobulk's X, float64), else a scipy
        CSR matrix of float32."""
        if isinstance(self._source, _engine.java("io.scflux.core.anndata.DenseMatrix")):
            return _exchange.array(self._source.values())
        return _exchange.csr(self._source)

    def __repr__(self) -> str:
        return f"<scflux lazy {self.shape[0]} x {self.shape[1]} matrix: {self._source.describe()}>"


def _source(value, shape: tuple[int, int], what: str):
    """The engine's matrix for a value assigned to X or a layer: a view, or a scipy / numpy matrix in memory."""
    if isinstance(value, XView):
        source = value._source
    else:
        import scipy.sparse as sp
        module = _engine.jpype()
        wide = getattr(value, "dtype", None) == np.float64
        m = sp.csr_matrix(value, dtype=np.float32)
        source = _engine.java("io.scflux.core.anndata.CsrMatrix").of(
            int(m.shape[1]), module.JArray(module.JLong)(m.indptr.astype(np.int64)),
            module.JArray(module.JInt)(m.indices.astype(np.int32)), module.JArray(module.JFloat)(m.data))
        if wide:  # written back as float64, as it came (obsp distances)
            source = source.withDtype(_engine.java("io.scflux.core.DType").FLOAT64)
    got = (int(source.nRows()), int(source.nCols()))
    if got != shape:
        raise ValueError(f"{what} is {got[0]} x {got[1]}, expected {shape[0]} x {shape[1]}")
    return source


class _Elements(MutableMapping):
    """Elements by name, held in ``_values``, of a container (``_owner``) whose shape they follow."""

    def __init__(self, owner: "AnnData", values: dict | None = None) -> None:
        self._owner = owner
        self._values = dict(values or {})

    def __delitem__(self, name) -> None:
        del self._values[name]

    def __iter__(self):
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"{type(self).__name__} with keys: {', '.join(self._values)}"


class Layers(_Elements):
    """``adata.layers``: views by name, each the shape of X."""

    def __getitem__(self, name):
        return XView(self._values[name])

    def __setitem__(self, name, value) -> None:
        self._values[str(name)] = _source(value, self._owner.shape, f"layers[{name!r}]")


class _Lazy:
    """An element a step left to compute (obsm ``X_pca``: X's projection on the components), read on first use; a
    write before that computes it in the write's own pass over X."""

    def __init__(self, source) -> None:
        self.source = source


class AxisArrays(_Elements):
    """``obsm``/``varm``/``obsp``: arrays (or frames) whose first axis is the axis' length."""

    def __init__(self, owner: "AnnData", axis: int, values: dict | None = None, pairwise: bool = False) -> None:
        super().__init__(owner, values)
        self._axis, self._pairwise = axis, pairwise

    def _length(self) -> int:
        return self._owner.shape[self._axis]

    def __getitem__(self, name):
        v = self._values[name]
        if isinstance(v, _Lazy):
            v = self._values[name] = _exchange.value(v.source)
        return v

    def __setitem__(self, name, value) -> None:
        n = self._length()
        if not isinstance(value, pd.DataFrame) and not hasattr(value, "tocsr"):
            value = np.asarray(value)
        rows = value.shape[0]
        if rows != n or (self._pairwise and value.shape[1] != n):
            raise ValueError(f"Value passed for key {name!r} is of incorrect shape. Values of {self._name()} must "
                             f"match dimensions {(n, n) if self._pairwise else (n,)} of parent. "
                             f"Value had shape {value.shape}.")
        self._values[str(name)] = value

    def _name(self) -> str:
        return ("obs" if self._axis == 0 else "var") + ("p" if self._pairwise else "m")

    def take(self, owner: "AnnData", positions: np.ndarray | None) -> "AxisArrays":
        out = AxisArrays(owner, self._axis, pairwise=self._pairwise)
        for k in self._values:
            v = self._values[k] if positions is None else self[k]
            if positions is None:
                out._values[k] = v
            elif isinstance(v, pd.DataFrame):
                out._values[k] = v.iloc[positions]
            elif self._pairwise:
                out._values[k] = v[positions][:, positions]
            else:
                out._values[k] = v[positions]
        return out


class Raw:
    """``adata.raw``: X as it was when ``adata.raw = adata`` ran (a view, not a copy), with its var and varm; it
    shares the container's cells, keeps all its genes."""

    def __init__(self, source, var: pd.DataFrame, varm: dict | None = None) -> None:
        self._source, self.var, self.varm = source, var, dict(varm or {})

    @property
    def X(self) -> XView:
        return XView(self._source)

    @property
    def shape(self) -> tuple[int, int]:
        return XView(self._source).shape

    @property
    def var_names(self) -> pd.Index:
        return self.var.index

    @property
    def n_vars(self) -> int:
        return self.shape[1]

    def to_adata(self):
        """raw as an in-memory ``anndata.AnnData`` (X read into memory)."""
        import anndata
        return anndata.AnnData(X=self.X.to_memory(), var=self.var.copy())

    def __repr__(self) -> str:
        return f"Raw AnnData with n_obs x n_vars = {self.shape[0]} x {self.shape[1]}"


class AnnData:
    """A dataset whose X stays in its file: see the module. Made by :func:`scflux.read_h5ad` and
    :func:`scflux.read_10x_h5`; steps change it in place as scanpy's change an ``anndata.AnnData``."""

    def __init__(self, x, obs: pd.DataFrame, var: pd.DataFrame, *, obs_names=None, var_names=None,
                 filename: Path | None = None) -> None:
        self._x = x
        self._obs, self._var = obs, var
        self._names = {0: (obs.index, obs_names), 1: (var.index, var_names)}
        self.obsm = AxisArrays(self, 0)
        self.varm = AxisArrays(self, 1)
        self.obsp = AxisArrays(self, 0, pairwise=True)
        self.varp = AxisArrays(self, 1, pairwise=True)
        self.uns: dict = {}
        self._layers = Layers(self)
        self._raw: Raw | None = None
        #: The engine's columns a step left to the next pass over X (QC's): put into obs and var when they are read
        self._pending = None
        self.filename = filename

    # ------------------------------------------------------------------------------------------------- reading

    @classmethod
    def _of(cls, j, filename: Path | None = None) -> "AnnData":
        """The container of the engine's container ``j``, every annotation read into pandas and numpy."""
        obs, var = _exchange.frame(j.obs()), _exchange.frame(j.var())
        out = cls(j.x(), obs, var, obs_names=j.obs().names(), var_names=j.var().names(), filename=filename)
        for name, target in (("obsm", out.obsm), ("varm", out.varm), ("obsp", out.obsp), ("varp", out.varp)):
            for k, v in getattr(j, name)().items():
                target._values[str(k)] = _exchange.value(v)
        out.uns = _exchange.value(j.uns())
        out._layers = Layers(out, {str(k): v for k, v in j.layers().items()})
        out._pending = j.pending()
        raw = j.raw()
        if raw is not None:
            out._raw = Raw(raw.x(), _exchange.frame(raw.var()),
                           {str(k): _exchange.value(v) for k, v in raw.varm().items()})
        return out

    # ---------------------------------------------------------------------------------------------- what it holds

    @property
    def shape(self) -> tuple[int, int]:
        return len(self._obs), len(self._var)

    @property
    def n_obs(self) -> int:
        return len(self._obs)

    @property
    def n_vars(self) -> int:
        return len(self._var)

    @property
    def obs(self) -> pd.DataFrame:
        self._settle()
        return self._obs

    @obs.setter
    def obs(self, df: pd.DataFrame) -> None:
        self._settle()
        self._obs = self._axis_frame(df, 0)

    @property
    def var(self) -> pd.DataFrame:
        self._settle()
        return self._var

    @var.setter
    def var(self, df: pd.DataFrame) -> None:
        self._settle()
        self._var = self._axis_frame(df, 1)

    def _axis_frame(self, df, axis: int) -> pd.DataFrame:
        if not isinstance(df, pd.DataFrame):
            raise TypeError(f"{'obs' if axis == 0 else 'var'} must be a DataFrame, got {type(df).__name__}")
        if len(df) != self.shape[axis]:
            raise ValueError(f"{'obs' if axis == 0 else 'var'} has {len(df)} rows, the container "
                             f"{self.shape[axis]} {'cells' if axis == 0 else 'genes'}")
        return df

    @property
    def obs_names(self) -> pd.Index:
        return self._obs.index

    @obs_names.setter
    def obs_names(self, names) -> None:
        self._obs.index = pd.Index(names)

    @property
    def var_names(self) -> pd.Index:
        return self._var.index

    @var_names.setter
    def var_names(self, names) -> None:
        self._var.index = pd.Index(names)

    @property
    def X(self) -> XView | None:
        return None if self._x is None else XView(self._x)

    @X.setter
    def X(self, value) -> None:
        self._x = None if value is None else _source(value, self.shape, "X")

    @property
    def layers(self) -> Layers:
        return self._layers

    @property
    def raw(self) -> Raw | None:
        return self._raw

    @raw.setter
    def raw(self, value) -> None:
        if value is None:
            self._raw = None
        elif isinstance(value, AnnData):
            if value.n_obs != self.n_obs:
                raise ValueError(f"raw has {value.n_obs} cells, the container {self.n_obs}")
            if value._x is None:
                raise ValueError("raw needs an X: the container given has none")
            self._raw = Raw(value._x, value.var.copy(), dict(value.varm))
        else:
            raise TypeError(f"raw must be a scflux AnnData (adata.raw = adata), got {type(value).__name__}")

    @property
    def is_view(self) -> bool:
        return False

    @property
    def isbacked(self) -> bool:
        return False

    def __len__(self) -> int:
        return self.n_obs

    def __repr__(self) -> str:
        lines = [f"AnnData object with n_obs \u00d7 n_vars = {self.n_obs} \u00d7 {self.n_vars}"]
        if self._x is not None:
            lines.append(f"    X: {self._x.describe()}")
        for name, keys in (("obs", self._obs.columns), ("var", self._var.columns), ("uns", self.uns.keys()),
                           ("obsm", self.obsm.keys()), ("varm", self.varm.keys()), ("layers", self._layers.keys()),
                           ("obsp", self.obsp.keys())):
            keys = list(keys)
            if keys:
                lines.append(f"    {name}: " + ", ".join(f"'{k}'" for k in keys))
        return "\n".join(lines)

    # -------------------------------------------------------------------------------------------------- selecting

    def __getitem__(self, index) -> "AnnData":
        rows, cols = index if isinstance(index, tuple) else (index, slice(None))
        r = _positions(rows, self._obs.index, "obs")
        c = _positions(cols, self._var.index, "var")
        return self._taken(r, c)

    def _taken(self, r: np.ndarray | None, c: np.ndarray | None) -> "AnnData":
        """The container of rows ``r`` and columns ``c`` (None: all), X and layers as lazy selections."""
        j = self._java(x=self._x)
        Selection = _engine.java("io.scflux.core.anndata.Selection")
        module = _engine.jpype()

        def selection(p):
            return Selection.all() if p is None else Selection.of(module.JArray(module.JInt)(p.astype(np.int32)))

        sub = _engine.call(j.subset, selection(r), selection(c))
        out = AnnData(sub.x(), self._obs if r is None else self._obs.iloc[r], self._var if c is None
                      else self._var.iloc[c], obs_names=sub.obs().names(), var_names=sub.var().names(),
                      filename=self.filename)
        out._obs, out._var = out._obs.copy(), out._var.copy()
        out._names = {0: (out._obs.index, sub.obs().names()), 1: (out._var.index, sub.var().names())}
        out.obsm = self.obsm.take(out, r)
        out.varm = self.varm.take(out, c)
        out.obsp = self.obsp.take(out, r)
        out.varp = self.varp.take(out, c)
        out.uns = dict(self.uns)
        out._layers = Layers(out, {str(k): v for k, v in sub.layers().items()})
        out._pending = sub.pending()
        if self._raw is not None:
            rr = sub.raw()
            out._raw = Raw(rr.x(), self._raw.var, self._raw.varm)
        return out

    def copy(self, filename=None) -> "AnnData":
        """A container that changes without changing this one: X, layers and raw's X are the same views (they never
        change), obs, var, obsm, varm and uns are copied."""
        if filename is not None:
            raise NotImplementedError("copy(filename=...) is anndata's backed copy: use write_h5ad(filename)")
        out = self._taken(None, None)
        for mine, theirs in ((self.obsm, out.obsm), (self.varm, out.varm)):
            theirs._values = {k: v if isinstance(v, _Lazy) else v.copy() for k, v in mine._values.items()}
        out.uns = _deep_copy(self.uns)
        return out

    # ---------------------------------------------------------------------------------------------- the engine's

    def _packed(self, axis: int):
        """The engine's strings of obs (0) or var (1) names, made again only when the index changed."""
        held, packed = self._names[axis]
        index = (self._obs if axis == 0 else self._var).index
        if packed is None or held is not index:
            packed = _exchange.packed(index)
            self._names[axis] = (index, packed)
        return packed

    def _java(self, *, x, obs_columns=(), var_columns=(), tag: bool = False, var=None, elements=None):
        """The engine's container of this one: X ``x``, the layers and raw, obs and var with the names and the
        columns named (all of them for ``"all"``), with ``tag`` the columns that tell which rows and columns a
        step kept, and the obsm/varm/obsp/varp/uns entries ``elements`` names (``{"obsm": ["X_pca"]}``)."""
        JAnnData = _engine.java("io.scflux.core.anndata.AnnData")
        obs_cols = list(self._obs.columns) if obs_columns == "all" else list(obs_columns)
        var_df = self._var if var is None else var
        var_cols = list(var_df.columns) if var_columns == "all" else list(var_columns)
        jobs = _exchange.to_frame(self._obs, self._packed(0), obs_cols)
        jvar = _exchange.to_frame(var_df, self._packed(1) if var is None else _exchange.packed(var.index), var_cols)
        if tag:
            jobs.put(_ROW, _exchange.to_column(pd.Series(np.arange(self.n_obs, dtype=np.int64))))
            jvar.put(_COL, _exchange.to_column(pd.Series(np.arange(len(var_df), dtype=np.int64))))
        j = _engine.call(JAnnData, x, jobs, jvar)
        if var is None and self._pending is not None:
            j.setPending(self._pending)
        if var is None:
            for k, v in self._layers._values.items():
                j.putLayer(k, v)
            if self._raw is not None:
                JRaw = _engine.java("io.scflux.core.anndata.Raw")
                j.setRaw(JRaw(self._raw._source, _exchange.to_frame(self._raw.var, _exchange.packed(
                    self._raw.var.index)), _exchange.to_map({})))
        if "log1p" in self.uns and isinstance(self.uns["log1p"], Mapping):
            j.uns().put("log1p", _exchange.to_map(self.uns["log1p"]))
        if elements:
            self._put_elements(j, elements)
        return j

    def _put_elements(self, j, elements) -> None:
        """Puts the obsm/varm/obsp/varp entries and uns keys named in ``elements`` (each a list, or ``"all"``) into
        the engine's container ``j``: lazy views as they are, matrices as the engine's, the rest as values."""
        for kind, put in (("obsm", j.putObsm), ("varm", j.putVarm), ("obsp", j.putObsp), ("varp", j.putVarp)):
            values = getattr(self, kind)._values
            names = elements.get(kind, ())
            for k in (list(values) if names == "all" else names):
                v = values[k]
                if isinstance(v, _Lazy):
                    v = v.source
                elif hasattr(v, "tocsr"):
                    v = _source(v, v.shape, k)
                else:
                    v = _exchange.to_value(v)
                put(k, v)
        names = elements.get("uns", ())
        j.uns().putAll(_exchange.to_map(self.uns if names == "all" else {k: self.uns[k] for k in names}))

    def _absorb(self, result, *, obs_columns=(), var_columns=(), into_layer=None, keep_x=False,
                var_axis=True, elements=None) -> None:
        """Puts what a step made (``result``, the engine's container of a step on :meth:`_java`'s) into this one:
        the rows and columns it kept, the columns it added to obs and var, its obsm, varm, obsp and uns entries,
        and its X (into ``into_layer`` instead when the step ran on a layer; not at all with ``keep_x``). Without
        ``var_axis`` (a step on raw) its var is raw's, and not put here."""
        if var_axis:
            self._pending = result.pending()
        pushed = {0: set(self._obs.columns if obs_columns == "all" else obs_columns),
                  1: set(self._var.columns if var_columns == "all" else var_columns)}
        frames = ((result.obs(), _ROW), (result.var(), _COL)) if var_axis else ((result.obs(), _ROW),)
        for axis, (frame, tag) in enumerate(frames):
            kept = np.asarray(frame.column(tag).values().data()) if frame.has(tag) else None
            if kept is not None and len(kept) != self.shape[axis]:
                self._take(axis, kept, frame.names())
            target = self._obs if axis == 0 else self._var
            for name in frame.columns().keySet():
                name = str(name)
                if name not in (_ROW, _COL) and name not in pushed[axis]:
                    target[name] = _exchange.column(frame.column(name))
        Source = _engine.java("io.scflux.core.BlockSource")
        given = elements or {}
        for name, target in (("obsm", self.obsm), ("varm", self.varm), ("obsp", self.obsp), ("varp", self.varp)):
            for k, v in getattr(result, name)().items():
                if str(k) in given.get(name, ()) and target._values.get(str(k)) is not None:
                    continue  # what this container gave the step comes back as it went
                target._values[str(k)] = _Lazy(v) if isinstance(v, Source) and v.isDense() else _exchange.value(v)
        for k, v in result.uns().items():
            k = str(k)
            if k == "log1p" and "log1p" in self.uns and _exchange.to_map(self.uns["log1p"]).equals(v):
                continue
            if k in given.get("uns", ()) and k in self.uns:
                continue
            self.uns[k] = _exchange.value(v)
        if keep_x:
            return
        if into_layer is not None:
            self._layers._values[into_layer] = result.x()
        else:
            self._x = result.x()
            self._layers._values = {str(k): v for k, v in result.layers().items()}
        if result.raw() is not None and self._raw is not None:
            self._raw._source = result.raw().x()

    def _settle(self) -> None:
        """Puts the columns a step left pending into obs and var: made already when a pass over X since has read
        every block, else by a pass now."""
        if self._pending is None:
            return
        j = self._java(x=self._x)
        self._absorb(_engine.wait(_engine.call(_engine.session().complete, j)), keep_x=True)

    def _become(self, other: "AnnData") -> None:
        """This container holds what ``other`` holds (a step that keeps some genes, as scanpy's ``subset=True``)."""
        self.__dict__.update(other.__dict__)
        for part in (self.obsm, self.varm, self.obsp, self.varp, self._layers):
            part._owner = self

    def _take(self, axis: int, positions: np.ndarray, names) -> None:
        """Keeps the rows (axis 0) or columns (1) ``positions`` in the annotations held here."""
        if axis == 0:
            self._obs = self._obs.iloc[positions].copy()
            self.obsm = self.obsm.take(self, positions)
            self.obsp = self.obsp.take(self, positions)
            self._names[0] = (self._obs.index, names)
        else:
            self._var = self._var.iloc[positions].copy()
            self.varm = self.varm.take(self, positions)
            self.varp = self.varp.take(self, positions)
            self._names[1] = (self._var.index, names)

    # ------------------------------------------------------------------------------------------------- handing on

    def write_h5ad(self, filename, compression=None, compression_opts=None, as_dense=()) -> None:
        """Writes the container as anndata writes it, once: to a temporary file beside ``filename``, renamed over it
        when complete. X and the layers are read block by block; a file the container still reads from is refused
        (write another name)."""
        if compression not in (None, "gzip"):
            raise NotImplementedError(f"compression={compression!r} is not supported (None or 'gzip')")
        if as_dense:
            raise NotImplementedError("as_dense is not supported: X and layers are written as CSR")
        self._write(Path(os.fspath(filename)).expanduser(), compression == "gzip")

    def _write(self, path: Path, gzip: bool, in_place: bool = False) -> None:
        """Writes the container to ``path``; ``in_place``: ``path`` is the file it reads from, rewritten (the
        path-based calls' "modify the data")."""
        session = _engine.session()
        write = session.writeInPlace if in_place else session.write
        _engine.wait(_engine.call(write, self._full_java(), str(path), gzip))

    write = write_h5ad

    def _full_java(self):
        """The engine's container of everything this one holds, for writing."""
        j = self._java(x=self._x, obs_columns="all", var_columns="all",
                       elements={kind: "all" for kind in ("obsm", "varm", "obsp", "varp", "uns")})
        if self._raw is not None:
            JRaw = _engine.java("io.scflux.core.anndata.Raw")
            raw_var = self._raw.var
            j.setRaw(JRaw(self._raw._source, _exchange.to_frame(raw_var, _exchange.packed(raw_var.index),
                                                                list(raw_var.columns)),
                          _exchange.to_map(self._raw.varm)))
        return j

    def to_memory(self):
        """The container as an in-memory ``anndata.AnnData``: X (and the layers) read into scipy CSR matrices."""
        return to_anndata(self, X=True)


def read_h5ad(filename) -> AnnData:
    """anndata's ``read_h5ad``, lazily: obs, var, obsm, varm, obsp and uns are read into memory now, X (and the
    layers, raw's X) stay in the file as views, read block by block by the steps that need them."""
    return _read(filename, None, True)


def _read(filename, genome, gex_only) -> AnnData:
    path = Path(os.fspath(filename)).expanduser()
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    session = _engine.session()
    return AnnData._of(_engine.call(session.read, str(path), genome, gex_only), filename=path)


def to_anndata(adata: AnnData, X: bool = False):
    """An ``anndata.AnnData`` of everything ``adata`` holds, for scanpy and the tools built on it to take over: with
    ``X=True`` X and the layers are read into memory, else it has no X (``X=None``)."""
    import anndata
    out = anndata.AnnData(obs=adata.obs.copy(), var=adata.var.copy(), uns=_deep_copy(adata.uns),
                          obsm=dict(adata.obsm), varm=dict(adata.varm), obsp=dict(adata.obsp))
    if X and adata._x is not None:
        out.X = adata.X.to_memory()  # set after: anndata 0.8's constructor would make float64 float32
    if X:
        for k in adata.layers:
            out.layers[k] = adata.layers[k].to_memory()
    if X and adata.raw is not None:
        out.raw = adata.raw.to_adata()
    return out


def _deep_copy(d):
    if isinstance(d, dict):
        return {k: _deep_copy(v) for k, v in d.items()}
    return d.copy() if hasattr(d, "copy") else d


def _positions(index, names: pd.Index, axis: str) -> np.ndarray | None:
    """anndata's index of one axis (a slice, bool mask, Series, ints, names) as positions; None for all."""
    if isinstance(index, slice) and index == slice(None):
        return None
    n = len(names)
    if isinstance(index, slice):
        return np.arange(n)[index]
    if isinstance(index, pd.Series):
        if index.dtype == bool and not index.index.equals(names):
            index = index.reindex(names)
        index = index.to_numpy()
    if isinstance(index, (str, int, np.integer)):
        index = [index]
    a = np.asarray(index)
    if a.dtype == bool:
        if len(a) != n:
            raise IndexError(f"Boolean index does not match AnnData's shape along this dimension: {len(a)} for "
                             f"{n} {axis}")
        return np.flatnonzero(a)
    if a.dtype.kind in "iu":
        if len(a) and (a.max() >= n or a.min() < -n):
            raise IndexError(f"index {a.max() if a.max() >= n else a.min()} is out of bounds for {n} {axis}")
        return np.where(a < 0, a + n, a)
    got = names.get_indexer(a.astype(object))
    if (got < 0).any():
        missing = [str(v) for v, p in zip(a, got) if p < 0][:5]
        raise KeyError(f"Values {missing}, from {list(a[:5])}, are not valid {axis} names or indices.")
    return got
