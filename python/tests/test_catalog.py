"""The Python functions agree with the jar's step catalog (``scflux steps --json``, which the command line and the
service are made from): each catalog step is a function of ``scflux.pp`` or ``scflux.tl`` by scanpy's name (anndata's
``concat`` is ``scflux.concat``), taking
exactly the catalog's parameters (besides the Python-only ones listed here) with the catalog's defaults, and each
parameter's declared bounds and choices are what the function refuses."""

import inspect
import math

import pytest

import scflux
from scflux import _catalog
from conftest import COUNTS

#: Parameters the Python functions have that no command-line option carries: where the result goes, what is
#: returned, and scanpy's parameters scflux refuses unless they have their default (checked by the functions).
PYTHON_ONLY = {
    "concat": {"adatas", "axis", "merge", "uns_merge", "pairwise"},
    "calculate_qc_metrics": {"expr_type", "var_type", "layer", "use_raw", "inplace", "parallel"},
    "filter_cells": {"inplace", "copy"},
    "filter_genes": {"inplace", "copy"},
    "normalize_total": {"layer", "inplace", "copy"},
    "log1p": {"copy", "chunked", "chunk_size", "layer", "obsm"},
    "highly_variable_genes": {"layer", "subset", "inplace", "check_values"},
    "scale": {"copy", "layer", "obsm", "mask_obs"},
    "pca": {"layer", "zero_center", "chunked", "chunk_size", "random_state", "return_info", "dtype", "key_added",
            "copy"},
    "rank_genes_groups": {"mask_var", "use_raw", "rankby_abs", "key_added", "copy", "kwds"},
    "pseudobulk": {"layer", "raw", "empty", "skip_checks", "bsize", "verbose"},
    "neighbors": {"knn", "transformer", "metric_kwds", "copy"},
    "umap": {"method", "copy"},
    "leiden": {"restrict_to", "adjacency", "directed", "use_weights", "partition_type", "copy", "clustering_args"},
}

#: scanpy's defaults that the catalog writes otherwise: scanpy's sentinel for "the default" (the catalog's no value,
#: None, or the value meant), or scanpy's present default where the catalog has its future one; as (Python's
#: default, the catalog's).
SENTINELS = {
    ("pca", "mask_var"): (scflux.pp._empty, None),  # scanpy: var["highly_variable"] when present, the catalog's unset
    ("rank_genes_groups", "groups"): ("all", None),  # scanpy's "all": the catalog's unset
    ("rank_genes_groups", "method"): (None, "t-test"),  # scanpy's None is t-test, the catalog's default
    ("leiden", "flavor"): ("leidenalg", "igraph"),  # scanpy 1.11's default, which warns; igraph is its future one
    ("leiden", "n_iterations"): (-1, 2),  # the same: scanpy's future default is flavor="igraph", n_iterations=2
    ("umap", "neighbors_key"): ("neighbors", None),  # scanpy's "neighbors": the catalog's unset
}


def _function(name):
    return getattr(scflux.pp, name, None) or getattr(scflux.tl, name, None) or getattr(scflux, name)


def _same(python, catalog) -> bool:
    if isinstance(python, (tuple, list)):
        return catalog is not None and list(python) == list(catalog)
    if isinstance(python, float) and isinstance(catalog, float) and math.isinf(python):
        return python == catalog
    return python == catalog and type(python) is not bool or python is catalog


def test_the_catalog_is_every_step(jar):
    assert set(_catalog.steps()) == set(PYTHON_ONLY)


@pytest.mark.parametrize("function", sorted(PYTHON_ONLY))
def test_functions_take_the_catalogs_parameters_with_its_defaults(jar, function):
    step = _catalog.steps()[function]
    signature = inspect.signature(_function(function)).parameters
    names = [n for n in signature if n not in ("data", "adata", "out")]
    declared = {p["name"]: p for p in step["parameters"]}
    assert set(names) - PYTHON_ONLY[function] == set(declared), function
    for name, p in declared.items():
        default = signature[name].default
        if p["required"]:
            assert default is inspect.Parameter.empty, f"{function}({name}) is required"
        elif (function, name) in SENTINELS:
            sentinel, catalogs = SENTINELS[function, name]
            assert default is sentinel or default == sentinel, f"{function}({name}={default!r})"
            assert p["default"] == catalogs, f"{function}({name}): the catalog's {p['default']!r}"
        else:
            assert _same(default, p["default"]), f"{function}({name}={default!r}), the catalog's {p['default']!r}"


def _bad_values(p):
    """Values the catalog's bounds and choices refuse, with the exception the check raises."""
    if p["kind"] == "choice":
        yield "no-such-" + p["name"], ValueError
    if p["kind"] in ("int", "float") and p["min"] is not None:
        below = p["min"] if p["min_exclusive"] else p["min"] - 1
        yield (int(below) if p["kind"] == "int" else below), ValueError
    if p["kind"] in ("int", "float"):
        yield "1", TypeError
    if p["kind"] == "bool":
        yield 1, TypeError


@pytest.mark.parametrize("function", sorted(PYTHON_ONLY))
def test_the_declared_bounds_and_choices_are_what_the_checks_refuse(jar, function):
    for p in _catalog.steps()[function]["parameters"]:
        for value, error in _bad_values(p):
            with pytest.raises(error, match=p["name"]):
                _catalog.check(function, p["name"], value)
        if p["default"] is not None:
            assert _catalog.arguments(function, **{p["name"]: p["default"]}) == {}, "a default is left to the engine"


def test_a_value_out_of_the_catalogs_bounds_is_refused_before_the_step_runs(jar, tmp_path):
    with pytest.raises(ValueError, match="n_bins"):
        scflux.pp.highly_variable_genes(COUNTS, n_bins=0, out=tmp_path / "x.h5ad")
    with pytest.raises(ValueError, match="max_value"):
        scflux.pp.scale(COUNTS, max_value=0, out=tmp_path / "x.h5ad")
    with pytest.raises(ValueError, match="min_cells"):
        scflux.pp.pseudobulk(COUNTS, "sample", "cell_type", min_cells=-1, out=tmp_path / "x.h5ad")
    assert not (tmp_path / "x.h5ad").exists()
