"""Finding and running the scflux command line (``java -jar scflux.jar``).

Everything that knows about processes lives here: where java and the jar are, how a command line is built from
:data:`scflux.settings`, and how the command's stderr becomes Python warnings and exceptions. The command line
reports a failure as ``scflux: error: <message>`` followed, when ``SCFLUX_ERROR_KIND=1`` is set, by
``scflux: error-kind: <kind>``; each kind maps to the builtin exception a Python user expects, through a subclass of
:class:`ScfluxError` so that ``except KeyError`` and ``except scflux.ScfluxError`` both work.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ._settings import settings

ERROR_PREFIX = "scflux: error: "
KIND_PREFIX = "scflux: error-kind: "
WARNING_PREFIX = "scflux: warning: "

_PACKAGE_DIR = Path(__file__).resolve().parent


class ScfluxError(Exception):
    """An error the scflux command line reported. Each instance is also the builtin exception of its kind
    (``FileNotFoundError``, ``PermissionError``, ``KeyError``, ``ValueError``, ``OSError`` or ``RuntimeError``).

    Attributes: ``kind`` (the command line's error kind, or ``None`` when it printed none), ``returncode``,
    ``command`` (the argument list after the jar) and ``stderr`` (everything it printed there).
    The message is the command line's error line without its ``scflux: error: `` prefix.
    """

    kind: str | None = None
    returncode: int | None = None
    command: list[str] | None = None
    stderr: str = ""

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
    """Kind ``internal``, or a failure the command line did not classify: most likely a bug in scflux."""


ERROR_KINDS: dict[str, type[ScfluxError]] = {
    "not_found": ScfluxNotFoundError,
    "permission": ScfluxPermissionError,
    "missing_key": ScfluxKeyError,
    "invalid": ScfluxValueError,
    "usage": ScfluxValueError,
    "io": ScfluxIOError,
    "internal": ScfluxInternalError,
}

USAGE_EXIT_STATUS = 2


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


@dataclass(frozen=True)
class Completed:
    """A command that succeeded: its stdout and its stderr lines other than warnings."""

    stdout: str
    notes: list[str]


def _user_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning point at the first caller outside this package."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(str(_PACKAGE_DIR)):
        frame = frame.f_back
        level += 1
    return level


def forward_warnings(lines: Sequence[str], *, drop=None) -> list[str]:
    """Raises each ``scflux: warning: ...`` line as a ``UserWarning`` (unless ``drop(message)`` is true) and returns
    the other lines."""
    rest = []
    for line in lines:
        if line.startswith(WARNING_PREFIX):
            message = line[len(WARNING_PREFIX):]
            if drop is None or not drop(message):
                warnings.warn(message, UserWarning, stacklevel=_user_stacklevel())
        else:
            rest.append(line)
    return rest


def error_from(returncode: int, stderr: str, command: Sequence[str] = ()) -> ScfluxError:
    """The exception for a failed command, from its exit status and stderr.

    With a ``scflux: error-kind:`` line the kind decides; without one (a jar older than the error kinds) an exit
    status of 2 (usage) is a ``ValueError`` and anything else a ``RuntimeError``.
    """
    lines = [line.rstrip() for line in stderr.splitlines()]
    message = next((line[len(ERROR_PREFIX):] for line in lines if line.startswith(ERROR_PREFIX)), None)
    kind = next((line[len(KIND_PREFIX):].strip() for line in lines if line.startswith(KIND_PREFIX)), None)
    if message is None:
        # picocli's usage errors (older jars) print the problem as the first line, before "Usage:"
        message = next((line for line in lines if line and not line.startswith("scflux: ")
                        and not line.startswith("Usage:")), None)
    if message is None:
        message = f"scflux exited with status {returncode} without an error line"
    if kind in ERROR_KINDS:
        cls = ERROR_KINDS[kind]
    elif returncode == USAGE_EXIT_STATUS:
        cls = ScfluxValueError
    else:
        cls = ScfluxInternalError
    error = cls(message)
    error.kind = kind
    error.returncode = returncode
    error.command = list(command)
    error.stderr = stderr
    return error


HUGE_PAGES = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def huge_pages() -> list[str]:
    """The heap on transparent huge pages where the kernel gives them on request, as the launcher ``bin/scflux`` asks.

    One page fault per 2 MiB of heap first touched instead of per 4 KiB; none where the kernel has none (``[never]``,
    or not Linux), for which the JVM would warn.
    """
    try:
        mode = HUGE_PAGES.read_text()
    except OSError:
        return []
    return ["-XX:+UseTransparentHugePages"] if "[always]" in mode or "[madvise]" in mode else []


# C2 takes a method after 20,000 calls (30,000 calls and loop turns), not 5,000: its time goes to the loops that read
# the matrix, not to start-up code; the launcher bin/scflux passes the same, and says what it measured.
JIT_OPTIONS = ("-XX:Tier4InvocationThreshold=20000", "-XX:Tier4CompileThreshold=30000")


def command_line(args: Sequence[str], global_options: Sequence[str] = ()) -> list[str]:
    """``java [opts] -jar scflux.jar [global options] ARGS`` for the current settings (their JVM options after ours)."""
    return [find_java(), *huge_pages(), *JIT_OPTIONS, *settings.jvm_options(), "-jar", str(find_jar()),
            *settings.global_options(), *global_options, *args]


def run(args: Sequence[str], *, global_options: Sequence[str] = (), drop_warning=None,
        echo: bool | None = None) -> Completed:
    """Runs one scflux command and waits for it.

    ``args`` is the command and its arguments (``["qc", "in.h5ad", "-o", "out.h5ad"]``). Warnings it prints are
    raised as ``UserWarning`` (``drop_warning(message)`` true drops one); a non-zero exit raises the
    :class:`ScfluxError` subclass of its error kind. Its other output lines are echoed on ``sys.stderr`` when
    ``echo`` is true (``None``: when ``scflux.settings.verbosity >= 2``).
    """
    argv = command_line(args, global_options)
    env = dict(os.environ, SCFLUX_ERROR_KIND="1")
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env)
    notes = forward_warnings(proc.stderr.splitlines(), drop=drop_warning)
    if proc.returncode != 0:
        raise error_from(proc.returncode, proc.stderr, argv[argv.index("-jar") + 2:])
    if (settings.verbosity >= 2) if echo is None else echo:
        for line in proc.stdout.splitlines() + notes:
            print(line, file=sys.stderr)
    return Completed(proc.stdout, notes)
