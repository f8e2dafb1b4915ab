"""scflux: scanpy's workflow on ``.h5ad`` files larger than memory.

``adata = scflux.read_h5ad("data.h5ad")`` opens a container that behaves as an AnnData: obs and var in pandas, X a
view held by scflux's engine (in this process, through JPype), which streams the matrix block by block.
``scflux.pp.normalize_total(adata, target_sum=1e4)`` does what ``sc.pp.normalize_total`` does, to the container;
given a path instead, the same call rewrites the file. See :mod:`scflux.pp` for the steps, :mod:`scflux.tl` for
marker genes, :mod:`scflux.pl` for plots, :func:`concat` and :func:`read_10x_h5` for making datasets, and
:data:`settings` for how the engine is started.
"""

from . import pl, pp, tl
from ._java import (ScfluxError, ScfluxInternalError, ScfluxIOError, ScfluxKeyError, ScfluxNotFoundError,
                   ScfluxPermissionError, ScfluxValueError)
from ._anndata import AnnData, XView, read_h5ad, to_anndata
from ._io import concat, read_10x_h5
from ._settings import settings

__version__ = "0.1.0"

__all__ = ["pp", "tl", "pl", "AnnData", "XView", "read_h5ad", "to_anndata", "concat", "read_10x_h5", "settings", "ScfluxError", "ScfluxNotFoundError",
           "ScfluxPermissionError", "ScfluxKeyError", "ScfluxValueError", "ScfluxIOError", "ScfluxInternalError",
           "__version__"]
