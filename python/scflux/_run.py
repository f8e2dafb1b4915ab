"""The one way a scflux function runs a command: into the input (in place), into ``out=``, or into a temporary file
that is read and deleted.

Every public function validates its parameters, builds the command's options and then calls :func:`execute`, which
decides where the result goes from scanpy's semantics:

- nothing to return (``inplace=True`` / ``copy=False``) and no ``out``: the input is rewritten atomically
  (``--in-place``: the command line writes a temporary file beside it and renames it over it when complete); a
  backed AnnData is closed first and re-opened on the new file afterwards;
- ``out=PATH``: the input stays, the result goes to PATH (and what scanpy returns is read from PATH); PATH naming
  the input (in any spelling, or a link to it) is an in-place rewrite for a call that modifies its data, and refused
  for one that returns its result (``copy=True``, ``inplace=False``, a new dataset), which leaves its input unchanged;
- something to return and no ``out``: the result goes to a temporary file in the input's folder (or the system's
  temporary folder), what scanpy returns is read from it, and it is deleted. Steps that only add annotations write
  it with ``--annotations-only`` so that no matrix is copied.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Sequence

from . import _cli
from ._files import Source, refresh, release, temporary_path

#: Reads what the function returns from the result file; ``temporary`` is true when the file is deleted afterwards.
Reader = Callable[[Path, bool], Any]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def refuse_input_as_out(out, sources: Sequence[Source]) -> None:
    """``ValueError`` when ``out`` names one of ``sources`` (by path, symlink or hard link), for a call that returns
    its result and must leave its inputs unchanged."""
    out_path = Path(os.fspath(out)).expanduser()
    for src in sources:
        if _same_file(out_path, src.path):
            raise ValueError(f"out={str(out)!r} is the input {src.path}, which this call leaves unchanged (it returns "
                             "its result: copy=True, inplace=False, or a new dataset): give out= another file, or "
                             "drop out= and use copy=False / inplace=True to rewrite the input")


def execute(command: str, sources: Source | Sequence[Source], options: Sequence[str] = (), *,
            out=None, returns: Reader | None = None, annotations_only: bool = False,
            global_options: Sequence[str] = (), drop_warning=None, echo: bool | None = None) -> Any:
    """Runs ``scflux COMMAND INPUT... OPTIONS`` with the output chosen as the module says, and returns
    ``returns(result_path, temporary)`` (``None`` without ``returns``).

    ``annotations_only`` applies to the temporary file only: a user's ``out=`` always gets the whole result.
    """
    sources = [sources] if isinstance(sources, Source) else list(sources)
    out_path = None if out is None else Path(os.fspath(out)).expanduser()
    if out_path is not None and returns is not None:
        refuse_input_as_out(out, sources)
    if out_path is not None and len(sources) == 1 and _same_file(out_path, sources[0].path):
        out_path = None  # out= names the input of a call that modifies it: that is an in-place rewrite
    in_place = out_path is None and returns is None
    inputs = [str(s.path) for s in sources]

    def cli(*destination: str) -> None:
        _cli.run([command, *inputs, *destination, *options], global_options=global_options,
                 drop_warning=drop_warning, echo=echo)

    if in_place:
        if len(sources) != 1:
            raise ValueError(f"{command} of several inputs needs out=...h5ad")
        src = sources[0]
        if src.cellranger:
            raise ValueError(f"{src.path} is a Cell Ranger .h5 file, which scflux cannot rewrite in place: "
                             "pass out=...h5ad to write the result as a new .h5ad")
        if src.adata is not None:
            release(src.adata)
        try:
            cli("--in-place")
        finally:
            if src.adata is not None:
                refresh(src.adata, src.path)
        return None if returns is None else returns(src.path, False)

    if out_path is not None:
        cli("-o", str(out_path))
        return None if returns is None else returns(out_path, False)

    temporary = temporary_path(sources[0].path)
    try:
        cli("-o", str(temporary), *(["--annotations-only"] if annotations_only else []))
        return returns(temporary, True)
    finally:
        temporary.unlink(missing_ok=True)
