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
import signal
import subprocess
import sys
import threading
import time
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


#: What java prints, on stdout or stderr, around the reason it could not start the JVM (``-Xmx1k``: "Too small
#: maximum heap"): said by the one line :func:`error_from` makes of that reason.
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


def error_from(returncode: int, stderr: str, command: Sequence[str] = (), stdout: str = "") -> ScfluxError:
    """The exception for a failed command, from its exit status, stderr and stdout.

    With a ``scflux: error-kind:`` line the kind decides; without one (a jar older than the error kinds) an exit
    status of 2 (usage) is a ``ValueError`` and anything else a ``RuntimeError``. A JVM that did not start (java's
    own message, on stdout for a bad heap size) is a ``ValueError`` naming the JVM options and java's reason; a
    command killed by a signal says which.
    """
    lines = [line.rstrip() for line in stderr.splitlines()]
    message = next((line[len(ERROR_PREFIX):] for line in lines if line.startswith(ERROR_PREFIX)), None)
    kind = next((line[len(KIND_PREFIX):].strip() for line in lines if line.startswith(KIND_PREFIX)), None)
    cls = None
    if message is None:
        reason = _jvm_start_failure(stdout, stderr)
        if reason is not None:
            options = settings.jvm_options()
            message = (f"java could not start scflux with the JVM options {' '.join(options) or '(none)'} "
                       f"(scflux.settings.java_opts or SCFLUX_JAVA_OPTS): {reason}")
            cls = ScfluxValueError
    if message is None and returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        message = f"scflux was killed by {name} before it finished (out of memory on the machine, or another process)"
    if message is None:
        # picocli's usage errors (older jars) print the problem as the first line, before "Usage:"
        message = next((line for line in lines if line and not line.startswith("scflux: ")
                        and not line.startswith("Usage:")), None)
    if message is None:
        message = f"scflux exited with status {returncode} without an error line"
    if cls is None:
        cls = ERROR_KINDS.get(kind) or (ScfluxValueError if returncode == USAGE_EXIT_STATUS else ScfluxInternalError)
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


#: How long a command asked to stop (Ctrl-C, Jupyter's "interrupt kernel") has to run its shutdown hooks, which
#: remove what it was writing, before it is killed.
STOP_SECONDS = 30.0


def run(args: Sequence[str], *, global_options: Sequence[str] = (), drop_warning=None,
        echo: bool | None = None) -> Completed:
    """Runs one scflux command and waits for it.

    ``args`` is the command and its arguments (``["qc", "in.h5ad", "-o", "out.h5ad"]``). Warnings it prints are
    raised as ``UserWarning`` (``drop_warning(message)`` true drops one); a non-zero exit raises the
    :class:`ScfluxError` subclass of its error kind. Its other output lines are echoed on ``sys.stderr`` when
    ``echo`` is true (``None``: when ``scflux.settings.verbosity >= 2``).

    The command dies with this process: its stdin is a pipe that only this process holds, and the command line
    stops (removing what it was writing) when the pipe ends, as it does when this process exits or is killed, by
    SIGKILL too. A ``KeyboardInterrupt`` (or any exception) while it runs stops it with SIGTERM, waits for it to
    remove its unfinished files, and is then raised.
    """
    argv = command_line(args, global_options)
    env = dict(os.environ, SCFLUX_ERROR_KIND="1", SCFLUX_CALLER_PIPE="1")
    returncode, stdout, stderr = _wait(argv, env)
    notes = forward_warnings(stderr.splitlines(), drop=drop_warning)
    if returncode != 0:
        raise error_from(returncode, stderr, argv[argv.index("-jar") + 2:], stdout)
    if (settings.verbosity >= 2) if echo is None else echo:
        for line in stdout.splitlines() + notes:
            print(line, file=sys.stderr)
    return Completed(stdout, notes)


def _wait(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Runs ``argv`` with stdin a pipe held by this process alone, its stdout and stderr read on threads, and
    returns its exit status, stdout and stderr; stopped (:func:`_stop`) when waiting is interrupted."""
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    outputs = {}

    def drain(name, stream):
        with stream:
            outputs[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(name, stream), daemon=True)
               for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr))]
    for reader in readers:
        reader.start()
    try:
        returncode = proc.wait()
    except BaseException:
        _stop(proc)
        raise
    finally:
        proc.stdin.close()
    for reader in readers:
        reader.join()
    return returncode, outputs.get("stdout", ""), outputs.get("stderr", "")


def _stop(proc: subprocess.Popen) -> None:
    """Stops a command that is no longer waited for: the pipe closed and SIGTERM, on which it cancels its pass and
    its shutdown hooks remove its unfinished output and spills; SIGKILL only if it has not exited within
    :data:`STOP_SECONDS`. Further interrupts while it stops do not cut the wait short."""
    deadline = time.monotonic() + STOP_SECONDS
    for attempt in (proc.stdin.close, proc.terminate):
        try:
            attempt()
        except OSError:
            pass
    while True:
        try:
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            return
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return
        except KeyboardInterrupt:
            continue
