"""Finding java and scflux's jar, and the exceptions the engine's errors become.

The engine (:mod:`scflux._engine`) runs in this process; this module knows where its jar is, checks the user's JVM
options on a java of their own (a JVM that refuses its options ends the process that starts it), and maps the
engine's error kinds to the builtin exceptions a Python user expects, through subclasses of :class:`ScfluxError`,
so that ``except KeyError`` and ``except scflux.ScfluxError`` both work.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Sequence

from ._settings import settings

_PACKAGE_DIR = Path(__file__).resolve().parent


class ScfluxError(Exception):
    """An error the scflux engine reported. Each instance is also the builtin exception of its kind
    (``FileNotFoundError``, ``PermissionError``, ``KeyError``, ``ValueError``, ``OSError`` or ``RuntimeError``).

    Attribute ``kind``: the error kind, as the command line's ``scflux: error-kind:`` line names it. The message
    is the one line the engine gives: file, HDF5 path and what was expected.
    """

    kind: str | None = None

    def __str__(self) -> str:  # KeyError would otherwise print the message with quotes
        return str(self.args[0]) if self.args else ""


class ScfluxNotFoundError(ScfluxError, FileNotFoundError):
    """Kind ``not_found``: an input file or folder that does not exist."""


class ScfluxPermissionError(ScfluxError, PermissionError):
    """Kind ``permission``: a file that may not be read or written."""


class ScfluxKeyError(ScfluxError, KeyError):
    """Kind ``missing_key``: an obs/var column, layer or other element the call names is not in the file."""


class ScfluxValueError(ScfluxError, ValueError):
    """Kinds ``invalid`` (a file that is not what it should be) and ``usage`` (an option value out of range)."""


class ScfluxIOError(ScfluxError, OSError):
    """Kind ``io``: reading or writing failed (disk full, a device error)."""


class ScfluxInternalError(ScfluxError, RuntimeError):
    """Kind ``internal``, or a failure the engine did not classify: most likely a bug in scflux."""


ERROR_KINDS: dict[str, type[ScfluxError]] = {
    "not_found": ScfluxNotFoundError,
    "permission": ScfluxPermissionError,
    "missing_key": ScfluxKeyError,
    "invalid": ScfluxValueError,
    "usage": ScfluxValueError,
    "io": ScfluxIOError,
    "internal": ScfluxInternalError,
}

def find_java() -> str:
    """``$JAVA_HOME/bin/java`` when JAVA_HOME is set and holds one, else ``java`` on the PATH."""
    home = os.environ.get("JAVA_HOME")
    if home:
        candidate = Path(home) / "bin" / ("java.exe" if os.name == "nt" else "java")
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("java")
    if found is None:
        raise FileNotFoundError("scflux needs Java 17 or later: no java on the PATH and none in JAVA_HOME"
                                + (f" ({home})" if home else ""))
    return found


def _checkout_jar() -> Path | None:
    """``samples/target/scflux.jar`` of the source checkout this package sits in, if any (walking up)."""
    for parent in _PACKAGE_DIR.parents:
        candidate = parent / "samples" / "target" / "scflux.jar"
        if candidate.is_file():
            return candidate
    return None


def find_jar() -> Path:
    """The jar to run: ``scflux.settings.jar``, else ``SCFLUX_JAR``, else ``scflux/jars/scflux.jar`` in the
    package, else ``lib/scflux.jar`` of the distribution the package came in (``scflux-VERSION/python/scflux``),
    else ``samples/target/scflux.jar`` of the checkout. A jar named explicitly that does not exist is an error rather
    than a reason to look further."""
    for name, value in (("scflux.settings.jar", settings.jar), ("SCFLUX_JAR", os.environ.get("SCFLUX_JAR"))):
        if value:
            path = Path(value).expanduser()
            if not path.is_file():
                raise FileNotFoundError(f"{name} is {str(value)!r}, which is not a file")
            return path
    bundled = _PACKAGE_DIR / "jars" / "scflux.jar"
    if bundled.is_file():
        return bundled
    distribution = _PACKAGE_DIR.parent.parent / "lib" / "scflux.jar"
    if distribution.is_file():
        return distribution
    checkout = _checkout_jar()
    if checkout is not None:
        return checkout
    raise FileNotFoundError(
        "scflux.jar not found: set SCFLUX_JAR (or scflux.settings.jar) to its path, put it at "
        f"{bundled}, or build it in the source checkout (mvn -q -DskipTests package makes samples/target/scflux.jar)")


def user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning point at the first caller outside this package."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(str(_PACKAGE_DIR)):
        frame = frame.f_back
        level += 1
    return level


#: What java prints, on stdout or stderr, around the reason it could not start the JVM (``-Xmx1k``: "Too small
#: maximum heap"): said by the one line :func:`check_jvm_options` makes of that reason.
JVM_START_LINES = ("Error occurred during initialization of VM", "Error: Could not create the Java Virtual Machine.",
                   "Error: A fatal exception has occurred. Program will exit.")


def _jvm_start_failure(stdout: str, stderr: str) -> str | None:
    """The reason java gave for not starting the JVM, or ``None`` when it started (it said none of
    :data:`JVM_START_LINES`)."""
    lines = [line.strip() for line in (stderr + "\n" + stdout).splitlines() if line.strip()]
    if not any(line in JVM_START_LINES for line in lines):
        return None
    reasons = [line for line in lines if line not in JVM_START_LINES]
    return "; ".join(reasons) if reasons else "no reason given"


def check_jvm_options(options: Sequence[str]) -> None:
    """``ValueError`` naming ``options`` and java's reason when a JVM will not start with them (``-Xmx1k``, an
    unknown option), found by starting ``java OPTIONS -version``: started in this process, such a JVM would end it."""
    proc = subprocess.run([find_java(), *options, "-version"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True)
    if proc.returncode != 0:
        reason = _jvm_start_failure(proc.stdout, proc.stderr)
        raise ScfluxValueError(f"java could not start scflux with the JVM options {' '.join(options)} "
                               f"(scflux.settings.java_opts or SCFLUX_JAVA_OPTS): {reason or proc.stderr.strip()}")


#: The command line's launcher's JIT thresholds: C2 takes a method after 20,000 calls (30,000 calls and loop turns),
#: not 5,000, so its time goes to the loops that read the matrix, not to start-up code (bin/scflux says what it
#: measured).
JIT_OPTIONS = ("-XX:Tier4InvocationThreshold=20000", "-XX:Tier4CompileThreshold=30000")
