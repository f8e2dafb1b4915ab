"""Values across the engine's border: Java frames, columns and arrays as pandas and numpy, and back.

Numbers cross as whole primitive arrays (JPype's buffers, one copy), strings as one UTF-8 byte array with the ends
of each string, categoricals as their codes and categories: nothing is converted element by element in Java. The
encodings follow anndata's, so a column keeps its dtype both ways (bool, int8..int64, uint8..uint64, float32,
float64, str, categorical with unused categories and order, pandas' nullable integers and booleans).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._engine import java, jpype

#: numpy's dtype of each Java DType, by its numpy name; Java holds unsigned integers in signed arrays of their size.
_SIGNED = {"uint8": np.int8, "uint16": np.int16, "uint32": np.int32, "uint64": np.int64}


# ------------------------------------------------------------------------------------------------------ Java to Python

def strings(packed) -> list[str]:
    """A ``PackedStrings`` as Python strings."""
    utf8 = bytes(np.asarray(packed.utf8()).view(np.uint8))
    ends = np.asarray(packed.ends()).tolist()
    out, start = [], 0
    for end in ends:
        out.append(utf8[start:end].decode("utf-8"))
        start = end
    return out


def array(dense) -> np.ndarray:
    """A ``DenseArray`` as a numpy array of its dtype and shape (strings as an object array)."""
    dtype = str(dense.dtype().numpyName())
    shape = tuple(int(n) for n in dense.shape())
    if dtype == "str":
        return np.array(strings(java("io.scflux.core.anndata.PackedStrings").of(dense.strings())), dtype=object) \
            .reshape(shape)
    values = np.asarray(dense.data())
    if dtype == "bool":
        values = values.astype(bool, copy=False)
    elif dtype in _SIGNED:
        values = values.view(np.dtype(dtype))
    else:
        values = values.astype(np.dtype(dtype), copy=False)
    return values.reshape(shape)


def column(col):
    """A Java ``Column`` as what pandas holds in a frame."""
    Categorical = java("io.scflux.core.anndata.CategoricalColumn")
    Nullable = java("io.scflux.core.anndata.NullableColumn")
    Array = java("io.scflux.core.anndata.ArrayColumn")
    if isinstance(col, Categorical):
        categories = array(col.categories())
        codes = np.asarray(col.codes())
        return pd.Categorical.from_codes(codes, categories=pd.Index(categories), ordered=bool(col.ordered()))
    if isinstance(col, Nullable):
        values = array(col.values())
        mask = np.asarray(col.mask()).astype(bool)
        if values.dtype == bool:
            return pd.arrays.BooleanArray(values, mask)
        if values.dtype.kind in "iu":
            return pd.arrays.IntegerArray(values, mask)
        return pd.array(np.where(mask, np.nan, values))
    if isinstance(col, Array):
        return array(col.values())
    raise TypeError(f"a column of type {col.typeName()} cannot be read into pandas")


def index(frame) -> pd.Index:
    names = frame.indexName()
    return pd.Index(strings(frame.names()), dtype=object, name=None if names is None else str(names))


def frame(jframe, *, only=None, into: pd.Index | None = None) -> pd.DataFrame:
    """A Java ``Frame`` as a DataFrame: every column, or those named in ``only``; indexed by ``into`` when given
    (the index Python holds already), else by the frame's own names."""
    idx = index(jframe) if into is None else into
    data = {}
    for name in jframe.columns().keySet():
        name = str(name)
        if only is None or name in only:
            data[name] = column(jframe.column(name))
    return pd.DataFrame(data, index=idx)


def value(v):
    """An obsm/varm/uns value: dense arrays, structured arrays, frames, nested maps; scalars as numpy scalars; a
    missing value (as uns ``log1p`` ``base``) as None."""
    if v is None:
        return None
    Dense = java("io.scflux.core.anndata.DenseArray")
    Record = java("io.scflux.core.anndata.RecordArray")
    Frame = java("io.scflux.core.anndata.Frame")
    Map = java("java.util.Map")
    Source = java("io.scflux.core.BlockSource")
    if isinstance(v, Dense):
        a = array(v)
        return a[()] if a.ndim == 0 else a
    if isinstance(v, Record):
        fields = {str(k): array(f) for k, f in v.fields().items()}
        dtype = [(k, a.dtype if a.dtype != object else "O") for k, a in fields.items()]
        out = np.empty(int(v.size()), dtype=dtype)
        for k, a in fields.items():
            out[k] = a
        return out
    if isinstance(v, Frame):
        return frame(v)
    if isinstance(v, java("io.scflux.core.anndata.Column")):  # a categorical or nullable array in uns
        return column(v)
    if isinstance(v, Map):
        return {str(k): value(e) for k, e in v.items()}
    if isinstance(v, Source):
        from . import _engine
        if v.isDense():
            return array(_engine.wait(_engine.session().dense(v)))
        return csr(v)
    if isinstance(v, (jpype().JString, str)):
        return str(v)
    if isinstance(v, java("java.lang.Boolean")):
        return bool(v)
    if isinstance(v, (java("java.lang.Integer"), java("java.lang.Long"), java("java.lang.Short"),
                      java("java.lang.Byte"))):
        return int(v)
    if isinstance(v, java("java.lang.Number")):
        return float(v)
    if isinstance(v, java("java.util.List")):
        return [value(e) for e in v]
    raise TypeError(f"scflux cannot read a {v.getClass().getName()} into Python")


def csr(source):
    """A Java matrix (X, a layer, a sparse element) in memory as a scipy CSR matrix: float32, or float64 for one the
    engine types so (obsp ``distances``, whose values it holds as float32)."""
    import scipy.sparse as sp
    from . import _engine
    indptr, indices, data = _engine.wait(_engine.session().collect(source))
    shape = (int(source.nRows()), int(source.nCols()))
    data = np.asarray(data)
    if source.dtype() == java("io.scflux.core.DType").FLOAT64:
        data = data.astype(np.float64)
    return sp.csr_matrix((data, np.asarray(indices), np.asarray(indptr)), shape=shape)


# ------------------------------------------------------------------------------------------------------ Python to Java

def packed(names) -> object:
    """Python strings as a ``PackedStrings``."""
    encoded = [str(n).encode("utf-8") for n in names]
    ends = np.cumsum([len(b) for b in encoded], dtype=np.int64)
    if len(ends) and ends[-1] > 2**31 - 9:
        raise ValueError(f"{len(encoded)} names take {ends[-1]} bytes, more than one Java array")
    module = jpype()
    utf8 = np.frombuffer(b"".join(encoded), dtype=np.int8)
    return java("io.scflux.core.anndata.PackedStrings").of(module.JArray(module.JByte)(utf8),
                                                         module.JArray(module.JInt)(ends.astype(np.int32)))


_JAVA_TYPES = {"b": "JBoolean", "i1": "JByte", "i2": "JShort", "i4": "JInt", "i8": "JLong", "f4": "JFloat",
               "f8": "JDouble"}


def dense(values) -> object:
    """A numpy array (numbers, bools or strings) as a ``DenseArray`` of the same dtype and shape."""
    module = jpype()
    DenseArray = java("io.scflux.core.anndata.DenseArray")
    DType = java("io.scflux.core.DType")
    a = np.asarray(values)
    shape = module.JArray(module.JLong)(np.array(a.shape, dtype=np.int64))
    if a.dtype.kind in "OUS":
        return DenseArray.of(DType.STRING, packed(a.ravel()).toArray(), shape)
    if a.dtype.kind == "u":
        name, store = a.dtype.name, a.view(np.dtype(f"i{a.dtype.itemsize}"))
    elif a.dtype.kind == "f" and a.dtype.itemsize == 2:
        name, store = "float32", a.astype(np.float32)
    else:
        name, store = a.dtype.name, a
    code = "b" if store.dtype.kind == "b" else f"{store.dtype.kind}{store.dtype.itemsize}"
    if code not in _JAVA_TYPES:
        raise TypeError(f"a {a.dtype} array cannot go to scflux's engine")
    flat = np.ascontiguousarray(store).ravel()
    data = module.JArray(getattr(module, _JAVA_TYPES[code]))(flat)
    return DenseArray.of(DType.valueOf(name.upper()), data, shape)


def to_column(series: pd.Series) -> object:
    """A pandas column as a Java ``Column`` of the same encoding."""
    values = series.array
    if isinstance(series.dtype, pd.CategoricalDtype):
        cat = series.cat
        codes = np.asarray(cat.codes, dtype=np.int32)
        Categorical = java("io.scflux.core.anndata.CategoricalColumn")
        module = jpype()
        n = len(cat.categories)
        return Categorical(dense(np.asarray(cat.categories)), module.JArray(module.JInt)(codes), bool(cat.ordered),
                           Categorical.smallestCodeType(n))
    if isinstance(values, (pd.arrays.IntegerArray, pd.arrays.BooleanArray)):
        module = jpype()
        mask = np.asarray(values.isna(), dtype=bool)
        filled = values.to_numpy(dtype=values.dtype.numpy_dtype, na_value=0)
        return java("io.scflux.core.anndata.NullableColumn")(dense(filled), module.JArray(module.JBoolean)(mask))
    a = series.to_numpy()
    if a.dtype.kind == "O":
        if not all(isinstance(v, str) for v in a):
            raise TypeError(f"column {series.name!r} mixes strings with other values; scflux stores str columns")
    return java("io.scflux.core.anndata.ArrayColumn")(dense(a))


def to_frame(df: pd.DataFrame, names, columns=()) -> object:
    """A Java ``Frame`` with the index ``names`` (a ``PackedStrings``) and the columns ``columns`` of ``df``."""
    Frame = java("io.scflux.core.anndata.Frame")
    out = Frame(names, None if df.index.name is None else str(df.index.name))
    for name in columns:
        out = out.put(str(name), to_column(df[name]))
    return out


def to_map(d: dict) -> object:
    """A dict (as uns holds) as a Java map of dense arrays, frames and nested maps."""
    Map = java("java.util.LinkedHashMap")
    out = Map()
    for k, v in d.items():
        if v is not None:  # anndata writes None as nothing
            out.put(str(k), to_value(v))
    return out


def to_value(v):
    if isinstance(v, dict):
        return to_map(v)
    if isinstance(v, pd.DataFrame):
        return to_frame(v, packed(v.index), list(v.columns))
    if v is None:
        raise TypeError("None cannot go to scflux's engine")
    a = np.asarray(v)
    if a.dtype.names:  # a structured array (rank_genes_groups' names, scores...)
        fields = java("java.util.LinkedHashMap")()
        for name in a.dtype.names:
            fields.put(name, dense(a[name]))
        return java("io.scflux.core.anndata.RecordArray").of(fields)
    return dense(a)


def arguments(values: dict) -> object:
    """Step arguments (numbers, bools, strings, lists of them) as the Java map the catalog reads."""
    module = jpype()
    out = java("java.util.LinkedHashMap")()
    List = java("java.util.ArrayList")
    for k, v in values.items():
        if v is None:
            continue
        if isinstance(v, (list, tuple)):
            items = List()
            for e in v:
                items.add(_scalar(module, e))
            out.put(k, items)
        else:
            out.put(k, _scalar(module, v))
    return out


def _scalar(module, v):
    if isinstance(v, (bool, np.bool_)):
        return module.JBoolean(bool(v))
    if isinstance(v, (int, np.integer)):
        return module.JLong(int(v))
    if isinstance(v, (float, np.floating)):
        return module.JDouble(float(v))
    return module.JString(str(v))
