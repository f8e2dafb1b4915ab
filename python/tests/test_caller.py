"""The command line dies with the Python call that started it, and nothing a call writes is left after a signal.

Each test runs a call in a child Python process on a copy of a synth file, waits until the command line (a JVM, the
child's child) has created its temporary output, holds the JVM there (SIGSTOP, so that it cannot finish meanwhile),
signals the Python process, and lets the JVM go on (SIGCONT). Killed (SIGKILL, SIGTERM) the Python process runs no
code of its own: the JVM must stop by itself; interrupted (SIGINT, Jupyter's "interrupt kernel") the call raises
``KeyboardInterrupt`` after the JVM stopped. Either way the JVM is gone within seconds, the input is byte-identical
and the folder holds nothing but it.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scflux import _cli
from conftest import PYTHON, leftovers, sha256

CALLS = {
    "in_place": "scflux.pp.log1p(path)",
    "copy": "scflux.pp.log1p(path, copy=True)",
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

#: How long the JVM may take to stop once it may run again.
STOP_SECONDS = 10


@pytest.fixture(scope="module")
def big(jar, tmp_path_factory) -> Path:
    """30,000 cells x 2,000 genes, gzip: a rewrite that takes about a second, a multiple of what stopping takes."""
    path = tmp_path_factory.mktemp("big") / "big.h5ad"
    _cli.run(["synth", "--cells", "30000", "--genes", "2000", "--nnz-per-cell", "300", "--compression", "gzip",
              "-o", str(path)])
    return path


def _jvm_of(pid: int, jar: Path) -> int | None:
    """The child of ``pid`` that runs ``jar``'s step (imports start others, such as ``uname -p``, and the package
    first runs ``scflux steps --json`` for its catalog)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    for child in children:
        try:
            args = Path(f"/proc/{child}/cmdline").read_text().split("\0")
            if str(jar) in args and "steps" not in args[args.index(str(jar)) + 1:]:
                return int(child)
        except OSError:
            continue
    return None


def _running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie, exited and not yet reaped, has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_until(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.001)
    pytest.fail(f"{what} within {seconds} s")


def _start_and_hold(jar, work: Path, call: str) -> tuple[subprocess.Popen, int]:
    """Starts ``call`` in a child Python on ``work``; returns it and its JVM, stopped once it has created its own
    temporary output. The JVM is let run a few milliseconds at a time, so that however loaded the machine it is
    caught early in its write."""
    env = dict(os.environ, SCFLUX_JAR=str(jar))
    child = subprocess.Popen([sys.executable, "-c", CHILD.format(call=call), str(PYTHON), str(work)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    jvm = _wait_until(lambda: _jvm_of(child.pid, jar), 30, "no JVM started")
    os.kill(jvm, signal.SIGSTOP)

    def writing() -> bool:
        if any(f".scflux-{jvm}-" in n for n in os.listdir(work.parent)):
            return True
        assert _running(jvm), "the JVM finished before it was seen writing"
        os.kill(jvm, signal.SIGCONT)
        time.sleep(0.005)
        os.kill(jvm, signal.SIGSTOP)
        return False

    _wait_until(writing, 60, "the JVM created no temporary output")
    return child, jvm


@pytest.fixture
def work(big, tmp_path) -> Path:
    path = tmp_path / "work.h5ad"
    path.write_bytes(big.read_bytes())
    return path


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_the_command_line_stops_when_its_python_caller_is_killed(jar, work, call, sig):
    before = sha256(work)
    child, jvm = _start_and_hold(jar, work, CALLS[call])
    try:
        os.kill(child.pid, sig)
        child.wait(timeout=30)
    finally:
        os.kill(jvm, signal.SIGCONT)
    _wait_until(lambda: not _running(jvm), STOP_SECONDS, "the JVM did not stop after its caller was killed")
    assert sha256(work) == before, "the input changed"
    assert leftovers(work.parent) == [], "temporary files left behind"


@pytest.mark.parametrize("call", CALLS)
def test_an_interrupt_stops_the_command_line_and_leaves_nothing(jar, work, call):
    before = sha256(work)
    child, jvm = _start_and_hold(jar, work, CALLS[call])
    try:
        os.kill(child.pid, signal.SIGINT)  # the Python process only, as Jupyter's "interrupt kernel"
    finally:
        os.kill(jvm, signal.SIGCONT)
    out, err = child.communicate(timeout=60)
    assert (child.returncode, out.strip()) == (3, "KeyboardInterrupt"), err
    assert not _running(jvm), "the JVM was waited for before KeyboardInterrupt was raised"
    assert sha256(work) == before, "the input changed"
    assert leftovers(work.parent) == [], "temporary files left behind"
