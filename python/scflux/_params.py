"""Parameter checks shared by the public functions, made before a step reaches the engine.

scflux keeps every parameter name of scanpy / decoupler / anndata; a value it cannot honour raises
``NotImplementedError`` naming the parameter (never silently ignored), a value scanpy itself would reject raises
what scanpy raises.
"""

from __future__ import annotations

import numbers

import numpy as np


def require(function: str, **checks: tuple[object, object]) -> None:
    """``NotImplementedError`` for the first ``name=(value, supported)`` whose value is not the supported one."""
    for name, (value, supported) in checks.items():
        if not _same(value, supported):
            raise NotImplementedError(
                f"scflux.{function}: {name}={value!r} is not supported (scflux streams X from the file and supports "
                f"only {name}={supported!r})")


def unsupported(function: str, name: str, value: object, why: str = "") -> NotImplementedError:
    """The ``NotImplementedError`` for a value scflux cannot do."""
    return NotImplementedError(f"scflux.{function}: {name}={value!r} is not supported" + (f" ({why})" if why else ""))


def _same(value, supported) -> bool:
    if value is supported:
        return True
    if isinstance(value, numbers.Number) and isinstance(supported, numbers.Number):
        return bool(value == supported)
    if isinstance(value, str) and isinstance(supported, str):
        return value == supported
    return False


def number(name: str, value) -> float | int:
    """A real number (not a bool), as a Python int or float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    return int(value) if isinstance(value, numbers.Integral) else float(value)


def count(name: str, value, *, minimum: int = 0) -> int:
    """A whole number >= ``minimum`` (a float with an integral value is accepted)."""
    v = number(name, value)
    if isinstance(v, float):
        if not v.is_integer():
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        v = int(v)
    if v < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value!r}")
    return v


def boolean(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def text(name: str, value) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"{name} must be a non-empty str, got {value!r}")
    return value

