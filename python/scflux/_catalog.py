"""The step catalog of the engine, from which the parameter checks of the public functions are made, instead of being
written here beside the Java options records.

The catalog (the one ``scflux steps --json`` prints) holds every step: scanpy's function name, its parameters
(scanpy's name, the kind of value, scanpy's default, bounds or choices, one line of doc); a number that is not finite
is the string ``"Infinity"`` there, read here as ``math.inf``. It is read once from the session's engine. A
parameter value is checked against it before the step runs; Python-only parameters (``inplace``, ``copy``, ``out``,
the unsupported ones) stay with their functions.
"""

from __future__ import annotations

import functools
import json
import math
import numbers
from typing import Any

import numpy as np

from . import _engine

#: The layout of ``scflux steps --json`` this package reads.
FORMAT = 1


def steps() -> dict[str, dict[str, Any]]:
    """The catalog's steps by scanpy's function name, from the session's engine (started if need be)."""
    _engine.session()
    return _from_engine()


@functools.lru_cache(maxsize=1)
def _from_engine() -> dict[str, dict[str, Any]]:
    return _parsed(str(_engine.java("io.scflux.samples.python.Session").catalog()), "the engine's jar")


def _parsed(text: str, jar: str) -> dict[str, dict[str, Any]]:
    document = json.loads(text)
    if document.get("format") != FORMAT:
        raise RuntimeError(f"{jar} prints a step catalog of format {document.get('format')!r}; this scflux package "
                           f"reads format {FORMAT}: use the jar of the same version")
    for step in document["steps"]:
        for p in step["parameters"]:
            for key in ("default", "min", "max", "except"):  # a number that is not finite is written as a string
                if isinstance(p[key], str) and (key != "default" or p["kind"] == "float"):
                    p[key] = float(p[key])
    return {s["function"]: s for s in document["steps"]}


def parameter(function: str, name: str) -> dict[str, Any]:
    """The catalog's parameter ``name`` of ``function``."""
    for p in steps()[function]["parameters"]:
        if p["name"] == name:
            return p
    raise KeyError(f"the step catalog has no parameter {name} of {function}")


def check(function: str, name: str, value):
    """``value`` of ``function``'s parameter ``name`` as the catalog declares it (type, bounds, choices): returned as
    the Python value to pass on (an int for a whole number, a list for a list), else ``TypeError``/``ValueError``
    naming the parameter. ``None`` is returned as is (not given)."""
    p = parameter(function, name)
    if value is None:
        if p["required"]:
            raise TypeError(f"{function}() missing required argument: {name!r}")
        return None
    kind = p["kind"]
    if kind in ("int_list", "string_list", "var_columns"):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError(f"{name} must be a collection, got {value!r}")
        return [_one(p, kind.split("_")[0] if kind != "var_columns" else "string", v) for v in value]
    return _one(p, kind, value)


def _one(p: dict[str, Any], kind: str, value):
    name = p["name"]
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {value!r}")
        return bool(value)
    if kind in ("int", "float"):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be a number, got {value!r}")
        if kind == "int":
            if not isinstance(value, numbers.Integral):
                if not float(value).is_integer():
                    raise ValueError(f"{name} must be a whole number, got {value!r}")
            value = int(value)
        else:
            value = float(value)
            if math.isnan(value):
                raise ValueError(f"{name} must be a number, got nan")
        _bounds(p, value)
        return value
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty str, got {value!r}")
    if kind == "choice" and value in p["unsupported"]:
        raise NotImplementedError(f"{name}={value!r} is not supported (scflux has {', '.join(p['choices'])})")
    if kind == "choice" and value not in p["choices"]:
        raise ValueError(f"{name} must be one of {', '.join(p['choices'])}, got {value!r}")
    return value


def _bounds(p: dict[str, Any], value) -> None:
    name, lo, hi = p["name"], p["min"], p["max"]
    if lo is not None and (value <= lo if p["min_exclusive"] else value < lo):
        raise ValueError(f"{name} must be {'more than' if p['min_exclusive'] else 'at least'} {_number(lo)}, "
                         f"got {value!r}")
    if hi is not None and (value >= hi if p["max_exclusive"] else value > hi):
        raise ValueError(f"{name} must be {'less than' if p['max_exclusive'] else 'at most'} {_number(hi)}, "
                         f"got {value!r}")
    if p["except"] is not None and value == p["except"]:
        raise ValueError(f"{name} must not be {_number(p['except'])}, got {value!r}")


def _number(v) -> str:
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def _same(value, default) -> bool:
    return (list(value) if isinstance(value, (list, tuple)) else value) == default


def arguments(function: str, **values) -> dict[str, Any]:
    """``function``'s parameters ``values`` (by scanpy's names) as the engine takes them, each checked by
    :func:`check`; a value equal to the catalog's default (or ``None``) is left out, so the engine applies the
    default it declares."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        p = parameter(function, name)
        value = check(function, name, value)
        if value is None or (p["default"] is not None and _same(value, p["default"])):
            continue
        out[name] = value
    return out
