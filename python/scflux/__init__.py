"""scflux: scanpy's preprocessing on ``.h5ad`` files larger than memory.

``scflux.pp.normalize_total("data.h5ad", target_sum=1e4)`` does what ``sc.pp.normalize_total(adata, target_sum=1e4)``
does, on the file, by running the scflux command line (``java -jar scflux.jar``), which streams the matrix block by
block. See :mod:`scflux.pp` for the steps, :mod:`scflux.tl` for marker genes, :func:`concat` and
:func:`read_10x_h5` for making files, and :data:`settings` for how Java is started.
"""

from . import pl, pp, tl
from ._cli import (ScfluxError, ScfluxInternalError, ScfluxIOError, ScfluxKeyError, ScfluxNotFoundError,
                   ScfluxPermissionError, ScfluxValueError)
from ._anndata import AnnData, XView, read_h5ad, to_anndata
from ._io import concat, read_10x_h5
from ._settings import settings

__version__ = "0.1.0"

__all__ = ["pp", "tl", "pl", "AnnData", "XView", "read_h5ad", "to_anndata", "concat", "read_10x_h5", "settings", "ScfluxError", "ScfluxNotFoundError",
           "ScfluxPermissionError", "ScfluxKeyError", "ScfluxValueError", "ScfluxIOError", "ScfluxInternalError",
           "__version__"]
