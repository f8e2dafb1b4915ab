"""A signal to the Python process in the middle of a path-based call's write leaves the input as it was, and the
folder as it was once the process is gone or its next write has run.

Each test runs a call in a child Python process on a copy of a synth file, waits until the engine (in that
process, through JPype) has created its temporary output, and signals the process:

- SIGINT (Jupyter's "interrupt kernel"): the pass is cancelled, its temporary file removed, and the call raises
  ``KeyboardInterrupt``; the process goes on.
- SIGTERM: the pass is stopped and its temporary file removed, then the process exits with status 143, as Python's
  default would, without the crash a JVM's own shutdown under a running Python thread makes.
- SIGKILL: no code runs; the temporary file stays, named for the dead process, and the next write in that folder
  removes it.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import scflux
from conftest import PYTHON, leftovers, sha256, synth

CALLS = {
    "in_place": "scflux.pp.log1p(path)",
    "out": "scflux.pp.log1p(path, out=path + '.out.h5ad')",
}

CHILD = """
import signal, sys
# Ctrl-C as a notebook's kernel gets it, even when this test runs where SIGINT is ignored (a background job)
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, sys.argv[1])
import scflux
scflux.settings.threads = 1
path = sys.argv[2]
try:
    {call}
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


@pytest.fixture(scope="module")
def big(jar, tmp_path_factory) -> Path:
    """30,000 cells x 2,000 genes, gzip: a rewrite that takes about a second, a multiple of what stopping takes."""
    return synth(tmp_path_factory.mktemp("big") / "big.h5ad", cells=30_000, genes=2_000, nnz_per_cell=300,
                 compression="gzip")


@pytest.fixture
def work(big, tmp_path) -> Path:
    path = tmp_path / "work.h5ad"
    path.write_bytes(big.read_bytes())
    return path


def _start_and_catch_writing(jar, work: Path, call: str) -> subprocess.Popen:
    """Starts ``call`` in a child Python on ``work``; returns it once its engine has created its temporary output."""
    env = dict(os.environ, SCFLUX_JAR=str(jar))
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(call=call), str(PYTHON), str(work)], env=env,
                             cwd=work.parent,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    mark = f".scflux-{child.pid}-"
    deadline = time.monotonic() + 60
    while not any(mark in name for name in os.listdir(work.parent)):
        if child.poll() is not None:
            pytest.fail(f"the call ended (status {child.returncode}) before it was seen writing: "
                        f"{child.stderr.read()[-2000:]}")
        if time.monotonic() > deadline:
            child.kill()
            pytest.fail("the call created no temporary output within 60 s")
        time.sleep(0.001)
    return child


@pytest.mark.parametrize("call", CALLS)
def test_an_interrupt_cancels_the_write_and_leaves_nothing(jar, work, call):
    before = sha256(work)
    child = _start_and_catch_writing(jar, work, CALLS[call])
    os.kill(child.pid, signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out.strip()) == (3, "KeyboardInterrupt"), err
    assert sha256(work) == before, "the input changed"
    assert leftovers(work.parent) == [], "temporary files left behind"


@pytest.mark.parametrize("call", CALLS)
def test_sigterm_stops_the_write_and_ends_the_process_cleanly(jar, work, call):
    before = sha256(work)
    child = _start_and_catch_writing(jar, work, CALLS[call])
    os.kill(child.pid, signal.SIGTERM)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGTERM, err
    assert "fatal error" not in err and "Traceback" not in err, err
    assert sha256(work) == before, "the input changed"
    assert leftovers(work.parent) == [], "temporary files (or a JVM crash report) left behind"


def test_what_sigkill_leaves_is_removed_by_the_next_write_in_the_folder(jar, work):
    before = sha256(work)
    child = _start_and_catch_writing(jar, work, CALLS["in_place"])
    child.kill()
    child.communicate(timeout=60)
    assert sha256(work) == before, "the input changed"
    left = leftovers(work.parent)
    assert [f".scflux-{child.pid}-" in name for name in left] == [True], left
    scflux.pp.log1p(work, out=work.parent / "next.h5ad")
    assert leftovers(work.parent) == [], "the next write removed the killed call's temporary file"
