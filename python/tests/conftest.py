"""Shared fixtures of the scflux Python tests.

The inputs are the fixtures tracked in the repository (``flux-io/src/test/resources/fixtures``), found relative to
this file; the expected values are scanpy / decoupler / anndata reference outputs (``flux-ops/src/test/resources/
expected`` and ``flux-io/src/test/resources/expected``), never scflux's own output. Tests that run the command line ask for the
``jar`` fixture, which skips them, saying why, when java or scflux.jar cannot be found.
"""

from __future__ import annotations

import functools
import hashlib
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import anndata
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

TESTS = Path(__file__).resolve().parent
PYTHON = TESTS.parent
ROOT = PYTHON.parent
FIXTURES = ROOT / "flux-io" / "src" / "test" / "resources" / "fixtures"
EXPECTED = ROOT / "flux-ops" / "src" / "test" / "resources" / "expected"
EXPECTED_IO = ROOT / "flux-io" / "src" / "test" / "resources" / "expected"

COUNTS = FIXTURES / "synth-3k.int64.h5ad"  # 3000 cells x 2000 genes, the reference's counts
COUNTS_B = FIXTURES / "synth-3k-b.h5ad"  # 1000 cells, 300 genes renamed: concat's second input

if str(PYTHON) not in sys.path:  # the package under test is the checkout's, unless installed
    sys.path.insert(0, str(PYTHON))

import scflux  # noqa: E402
from scflux import _java  # noqa: E402

warnings.filterwarnings("ignore", message=".*load pytorch.*")  # anndata 0.8's experimental module


def _jar_unavailable() -> str | None:
    try:
        java = _java.find_java()
        jar = _java.find_jar()
    except FileNotFoundError as e:
        return str(e)
    return None if java and jar else "java or scflux.jar not found"


def pytest_report_header(config):
    why = _jar_unavailable()
    if why:
        return f"scflux: SKIPPING the tests that run the engine: {why}"
    return f"scflux: {_java.find_jar()} (java: {_java.find_java()})"


@pytest.fixture(scope="session")
def jar() -> Path:
    """The jar the tests run; skips the test (with the reason) when java or the jar is missing."""
    why = _jar_unavailable()
    if why:
        pytest.skip(f"scflux's jar unavailable: {why}")
    return _java.find_jar()


def synth(path: Path, *, cells: int, genes: int, nnz_per_cell: int, compression: str = "none") -> Path:
    """Writes a synthetic counts file with the jar's ``scflux synth`` command, and returns its path."""
    subprocess.run([_java.find_java(), "-jar", str(_java.find_jar()), "synth", "--cells", str(cells), "--genes",
                    str(genes), "--nnz-per-cell", str(nnz_per_cell), "--compression", compression, "-o", str(path)],
                   check=True, stdin=subprocess.DEVNULL, capture_output=True)
    return path


@pytest.fixture(scope="session")
def engine(jar):
    """The engine of this test session (JPype in this process); skips the test, saying why, when JPype is
    missing."""
    try:
        import jpype  # noqa: F401
    except ImportError:
        pytest.skip("JPype unavailable (Debian: python3-jpype): the container's engine runs through it")
    from scflux import _engine
    return _engine.session()


# ------------------------------------------------------------------------------------------------ expected values

def expected_csv(name: str) -> pd.DataFrame:
    """A reference CSV by name (``qc_obs``), gzip: from flux-ops' expected folder or flux-io's (read_10x_var)."""
    for folder in (EXPECTED, EXPECTED_IO):
        path = folder / f"{name}.csv.gz"
        if path.exists():
            return pd.read_csv(path, index_col=0, keep_default_na=False, na_values=["NaN"])
    raise FileNotFoundError(f"no reference {name}.csv.gz in {EXPECTED} or {EXPECTED_IO}")


@functools.lru_cache(maxsize=2)
def _counts(path: Path) -> sp.csr_matrix:
    a = anndata.read_h5ad(path)
    x = a.X
    return sp.csr_matrix((np.asarray(x.data, dtype=np.float64), x.indices.astype(np.int64),
                          x.indptr.astype(np.int64)), shape=x.shape)


def counts_matrix(path: Path = COUNTS) -> sp.csr_matrix:
    """The counts of a fixture as float64 CSR (a copy), read independently of scflux (anndata in memory)."""
    return _counts(path).copy()


def assert_close(actual, expected, rtol: float, what: str, atol: float = 0.0) -> None:
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def leftovers(folder: Path) -> list[str]:
    """Hidden or temporary files a run left in ``folder`` (the engine's temporaries, a JVM crash report)."""
    return sorted(p.name for p in Path(folder).iterdir()
                  if p.name.startswith(".") or p.suffix == ".tmp" or p.name.startswith("hs_err_pid"))


# ------------------------------------------------------------------------------------------ running a step on a file

#: Where a path-based call's result goes: rewritten in place, or into out= (the input stays).
MODES = ("in_place", "out")


def run_step(step, fixture: Path, mode: str, folder: Path, **kwargs) -> anndata.AnnData:
    """Runs ``step(path, **kwargs)`` in ``mode`` on a copy of ``fixture`` (in_place) or with ``out=`` (the fixture
    must stay byte-identical) and returns the resulting file read into memory. Checks that the step returned None
    (scanpy's return for a step that modifies its data) and left no temporary file."""
    folder.mkdir(parents=True, exist_ok=True)
    if mode == "out":
        before = sha256(fixture)
        out = folder / "out.h5ad"
        assert step(fixture, out=out, **kwargs) is None
        assert sha256(fixture) == before, "out= must leave the input byte-identical"
        result = out
    elif mode == "in_place":
        result = folder / "work.h5ad"
        shutil.copyfile(fixture, result)
        assert step(result, **kwargs) is None
    else:
        raise ValueError(mode)
    assert leftovers(folder) == [], "temporary files left behind"
    return anndata.read_h5ad(result)


@pytest.fixture(scope="session")
def lognorm(jar, tmp_path_factory) -> Path:
    """synth-3k after ``normalize_total(target_sum=1e4); log1p`` (through out=, which every jar has), the input
    of the reference's hvg calls; tests must not modify it."""
    folder = tmp_path_factory.mktemp("lognorm")
    scflux.pp.normalize_total(COUNTS, target_sum=1e4, out=folder / "normalized.h5ad")
    scflux.pp.log1p(folder / "normalized.h5ad", out=folder / "lognorm.h5ad")
    return folder / "lognorm.h5ad"


@pytest.fixture(scope="session")
def lognorm_hvg(jar, lognorm, tmp_path_factory) -> Path:
    """``lognorm`` with the seurat highly variable genes of the reference call (n_top_genes=500) in var."""
    out = tmp_path_factory.mktemp("lognorm_hvg") / "hvg.h5ad"
    scflux.pp.highly_variable_genes(lognorm, flavor="seurat", n_top_genes=500, out=out)
    return out


@pytest.fixture(scope="session")
def lognorm_sub(lognorm, tmp_path_factory) -> Path:
    """The reference's PCA and scale input: ``lognorm`` restricted to the reference's seurat genes, in var order
    (``adata_log1p[:, hvg_seurat.highly_variable].copy()``), made with anndata."""
    hv = expected_csv("hvg_seurat")["highly_variable"].to_numpy()
    a = anndata.read_h5ad(lognorm)
    out = tmp_path_factory.mktemp("lognorm_sub") / "sub.h5ad"
    a[:, hv].copy().write_h5ad(out)
    return out
