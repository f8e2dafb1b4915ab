"""The one engine of this Python session: scflux's Java engine started in this process through JPype.

The engine is started on first use with the jar :func:`scflux._java.find_jar` finds and the JVM options of
:data:`scflux.settings`, and stops with the interpreter (a JVM cannot be started twice in one process, so the first
settings hold for the session). It holds the containers' lazy X, runs the catalog's steps on them and shares one cache
of decoded blocks between every pass. A pass runs on the engine's threads; Python waits for it in slices of
:data:`SLICE_MS`, so Ctrl-C (Jupyter's "interrupt kernel") reaches the interpreter between two slices, cancels the
pass and raises ``KeyboardInterrupt`` with the container as it was.

Why in-process: a call costs a Java method call (microseconds) instead of a JVM start per call (0.5 s for the
command line's ``info``) or a round trip to an engine process with obs and var serialized both ways; the columns
cross as primitive arrays through JPype's buffers.
"""

from __future__ import annotations

import functools
import signal
import threading
import time
import warnings
from pathlib import Path

from . import _java
from ._settings import settings

#: How long one wait for a pass lasts before Python looks for Ctrl-C again.
SLICE_MS = 100

#: The engine's JVM options before the user's (which come after, and win): a heap that keeps Python and the engine
#: together near 1 GB on the 200,000-cell benchmark, and the command line's launcher's JIT thresholds.
DEFAULT_JVM_OPTIONS = ("-Xmx1g", *_java.JIT_OPTIONS)

#: The engine's log level (the command line's -1 --quiet, 0, 1 -v, 2 -vv) for each of scanpy's verbosities.
_LOG_LEVELS = {0: -1, 1: 0, 2: 1, 3: 1, 4: 2}

#: The signals that end a process, which Python keeps once the JVM has started (see _keep_ending_signals).
_ENDING = (signal.SIGTERM, signal.SIGHUP)

#: How long a pass stopped because the process ends may take to remove its unfinished output.
_STOP_MS = 10_000

#: How long a cancelled pass waits for the second half of a Ctrl-C that JPype delivers twice (see _cancel).
_SECOND_HALF_S = 0.5

#: JPype's own jar, which its class loader needs beside ours (Debian's python3-jpype puts it here).
_JPYPE_JARS = (Path("/usr/share/java/org.jpype.jar"),)

_lock = threading.Lock()
_session = None


def jpype():
    """The ``jpype`` module, or an ImportError saying how to get it."""
    try:
        import jpype as module
    except ImportError as e:
        raise ImportError("scflux's engine runs in this process through JPype: install it (Debian: apt install "
                          "python3-jpype; else pip install JPype1)") from e
    return module


def _classpath() -> list[str]:
    path = [str(_java.find_jar())]
    module = jpype()
    own = Path(module.__file__).resolve().parent.parent / "org.jpype.jar"
    for candidate in (own, *_JPYPE_JARS):
        if candidate.is_file():
            path.append(str(candidate))
            break
    return path


def started() -> bool:
    """Whether this session's engine runs already."""
    return _session is not None


def session():
    """The engine of this session (``io.scflux.samples.python.Session``), started on first use."""
    global _session
    if _session is not None:
        return _session
    with _lock:
        if _session is None:
            module = jpype()
            threads = settings.engine_threads()
            if not module.isJVMStarted():
                if settings.jvm_options():
                    _java.check_jvm_options(settings.jvm_options())
                options = [*DEFAULT_JVM_OPTIONS, *settings.jvm_options()]
                ending = _ending_handlers()
                try:
                    module.startJVM(module.getDefaultJVMPath(), *options, classpath=_classpath(),
                                    convertStrings=False, interrupt=False)
                except OSError as e:  # a JVM that refuses its options cannot start again in this process
                    raise ValueError(f"java refused the options {options}: {e}") from e
                _keep_ending_signals(ending)
            cache = -1 if settings.cache_mb is None else int(settings.cache_mb) << 20
            _session = java("io.scflux.samples.python.Session").start(threads, cache, _LOG_LEVELS[min(max(int(settings.verbosity), 0), 4)])
    return _session


@functools.lru_cache(maxsize=None)
def java(name: str):
    """The Java class ``name`` (``io.scflux...``: reached by name, since Python's own ``io`` hides the package)."""
    return jpype().JClass(name)


def wait(pass_):
    """The result of a ``Pass``, waited for in slices; Ctrl-C cancels it and raises ``KeyboardInterrupt``; its
    warnings become ``UserWarning``s; its failure is raised as :func:`error` makes it."""
    try:
        while not pass_.waitFor(SLICE_MS):
            pass
    except KeyboardInterrupt:
        _cancel(pass_, from_python=True, from_java=False)
    except java("java.lang.InterruptedException"):
        _cancel(pass_, from_python=False, from_java=True)
    except SystemExit:  # SIGTERM or SIGHUP (_end): the pass stops and removes its unfinished output, then we exit
        pass_.cancel()
        pass_.waitFor(_STOP_MS)
        raise
    _warn()
    try:
        return pass_.result()
    except jpype().JException as e:
        raise error(e) from None


def _ending_handlers() -> dict:
    """Python's handlers of the signals that end a process (:data:`_ENDING`), before the JVM starts and takes them;
    none from another thread than the main one, which alone may set them again."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.getsignal(sig) for sig in _ENDING}


def _keep_ending_signals(before: dict) -> None:
    """Gives the signals that end a process back to Python once the JVM has taken them: to the handler the user had,
    or (for Python's default) to :func:`_end`. Taken by the JVM, a SIGTERM would run its shutdown and exit while a
    Python thread is inside it, and the process crashes (SIGSEGV, an ``hs_err`` file in the working folder)."""
    for sig, handler in before.items():
        if handler is not None:
            signal.signal(sig, _end if handler == signal.SIG_DFL else handler)


def _end(signum, frame) -> None:
    """A SIGTERM or SIGHUP as Python's default would end the process, with status 128 + the signal, but through
    ``SystemExit``: a pass running is stopped first and removes its unfinished output (:func:`wait`)."""
    raise SystemExit(128 + signum)


def _cancel(pass_, *, from_python: bool, from_java: bool) -> None:
    """Cancels ``pass_`` for the user's Ctrl-C and raises ``KeyboardInterrupt`` once it has ended.

    JPype delivers one SIGINT twice, in either order: as Python's KeyboardInterrupt and as an interrupt of the Java
    thread (an InterruptedException in the wait, or the thread's flag). Both halves are taken here (``from_python``
    and ``from_java`` say which came), waiting for the other at most :data:`_SECOND_HALF_S`, so that neither
    surfaces later: a second KeyboardInterrupt in the caller's handler, or the next step's wait ended at once."""
    pass_.cancel()
    thread, interrupted = java("java.lang.Thread"), java("java.lang.InterruptedException")
    deadline = time.monotonic() + _SECOND_HALF_S
    while True:
        try:
            from_java = from_java or bool(thread.interrupted())
            if pass_.waitFor(SLICE_MS) and (from_python and from_java or time.monotonic() > deadline):
                break
            time.sleep(0.005)
        except KeyboardInterrupt:
            from_python = True
        except interrupted:
            from_java = True
    _warn()
    raise KeyboardInterrupt from None


def call(function, *args):
    """``function(*args)`` on the engine, its Java exception raised as :func:`error` makes it."""
    try:
        return function(*args)
    except jpype().JException as e:
        raise error(e) from None


def error(e) -> Exception:
    """A Java exception as the Python exception its error kind maps to, with its one line."""
    Session = java("io.scflux.samples.python.Session")
    if isinstance(e, java("java.util.concurrent.CancellationException")):
        return KeyboardInterrupt()
    message = str(Session.message(e))
    kind = str(Session.kind(e))
    exception = _java.ERROR_KINDS.get(kind, _java.ScfluxInternalError)(message)
    exception.kind = kind
    return exception


def _warn() -> None:
    if _session is None:
        return
    for message in _session.warnings():
        warnings.warn(str(message), UserWarning, stacklevel=_java.user_stacklevel())
