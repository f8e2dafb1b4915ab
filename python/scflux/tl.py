"""``scflux.tl``: scanpy's ``sc.tl`` on files larger than memory (``rank_genes_groups``).

As :mod:`scflux.pp`: ``data`` is a path to an ``.h5ad`` or a backed AnnData; scanpy's ``copy=False`` rewrites the
file atomically, ``out=PATH`` writes the result there instead, ``copy=True`` returns the result as an AnnData. The
command line (``scflux rank-genes-groups``) streams X.
"""

from __future__ import annotations

from collections.abc import Iterable

import h5py

from ._files import read_adata, require_column, source
from ._params import boolean, count, require, text, unsupported
from ._run import execute

__all__ = ["rank_genes_groups"]

_METHODS = ("t-test", "t-test_overestim_var", "wilcoxon")
_CORR_METHODS = ("benjamini-hochberg", "bonferroni")


def rank_genes_groups(data, groupby, *, mask_var=None, use_raw=None, groups="all", reference="rest", n_genes=None,
                      rankby_abs=False, pts=False, key_added=None, copy=False, method=None,
                      corr_method="benjamini-hochberg", tie_correct=False, layer=None, out=None, **kwds):
    """scanpy's ``sc.tl.rank_genes_groups`` (command ``scflux rank-genes-groups``), methods ``t-test``,
    ``t-test_overestim_var`` and ``wilcoxon``, on log-normalized X (or ``layer``).

    Adds ``uns["rank_genes_groups"]`` as scanpy does (``params``; the structured arrays ``names``, ``scores``,
    ``logfoldchanges``, ``pvals``, ``pvals_adj``; ``pts`` and ``pts_rest`` with ``pts=True``), which
    ``sc.get.rank_genes_groups_df`` reads. Returns ``None``, or the AnnData with ``copy=True``. scflux tests X (or
    ``layer``), never raw: ``use_raw=None`` (scanpy's default, raw when there is one) needs a file without raw.
    """
    where = "rank_genes_groups"
    require(where, mask_var=(mask_var, None), rankby_abs=(rankby_abs, False), key_added=(key_added, None))
    if kwds:
        raise unsupported(where, next(iter(kwds)), next(iter(kwds.values())), "only logreg takes more arguments")
    method = "t-test" if method is None else method
    if method == "logreg":
        raise unsupported(where, "method", method, "scflux has t-test, t-test_overestim_var and wilcoxon")
    if method not in _METHODS:
        raise ValueError(f"Method must be one of {('logreg', *_METHODS)}.")
    if corr_method not in _CORR_METHODS:
        raise ValueError(f"Correction method must be one of {set(_CORR_METHODS)}.")
    copy, pts, tie_correct = boolean("copy", copy), boolean("pts", pts), boolean("tie_correct", tie_correct)
    src = source(data)
    with h5py.File(src.path, "r") as f:
        has_raw = "raw" in f
    if use_raw is None:
        use_raw = has_raw
    elif boolean("use_raw", use_raw) and not has_raw:
        raise ValueError("Received `use_raw=True`, but `adata.raw` is empty.")
    if use_raw:
        if layer is not None:
            raise ValueError("Cannot specify `layer` and have `use_raw=True`.")
        raise unsupported(where, "use_raw", True, "scflux tests X or a layer, not raw; pass use_raw=False")
    require_column(src, "obs", text("groupby", groupby), "groupby")
    options = ["--groupby", groupby, "--method", method, "--corr-method", corr_method]
    if isinstance(groups, str):
        if groups != "all":
            raise ValueError("Specify a sequence of groups")
    elif isinstance(groups, Iterable):
        names = [str(g) for g in groups]
        if not names or any("," in g for g in names):
            raise unsupported(where, "groups", groups, "scflux needs group names without commas")
        options += ["--groups", ",".join(names)]
    else:
        raise TypeError(f"groups must be 'all' or a sequence of group names, got {groups!r}")
    if reference != "rest":
        options += ["--reference", text("reference", str(reference))]
    if n_genes is not None:
        options += ["--n-genes", str(count("n_genes", n_genes, minimum=1))]
    if pts:
        options.append("--pts")
    if tie_correct:
        options.append("--tie-correct")
    if layer is not None:
        options += ["--layer", text("layer", layer)]
    return execute("rank-genes-groups", src, options, out=out, returns=read_adata if copy else None)
