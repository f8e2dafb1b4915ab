"""``scflux.settings``: how the session's engine is started.

One small mutable object, like ``scanpy.settings``, so that a notebook can say once which jar, which JVM options,
how many threads and how much cache the engine gets. Nothing here starts Java; :mod:`scflux._engine` reads it when
it starts the engine, on the first call, and those values hold for the session (a JVM starts once per process).
"""

from __future__ import annotations

import os
import shlex


class Settings:
    """How the engine of this Python session starts (read once, on the first call that needs it).

    Attributes
    ----------
    jar
        Path of ``scflux.jar``; ``None`` (the default) looks it up: the environment variable ``SCFLUX_JAR``, then
        ``scflux/jars/scflux.jar`` inside the installed package, then ``samples/target/scflux.jar`` of the source
        checkout the package sits in.
    java_opts
        JVM options (``["-Xmx4g"]``), after the engine's own (``-Xmx1g``), so they win; ``None`` (the default) takes
        ``SCFLUX_JAVA_OPTS`` split as a shell would. Options a JVM refuses are one ``ValueError``.
    threads
        The engine's workers decoding and folding blocks (results do not depend on it); ``None``: the machine's
        cores.
    cache_mb
        The budget, in MiB, of the engine's cache of decoded blocks, which every pass of the session shares (read
        when the engine starts). ``None`` (the default): an eighth of the engine's heap, for compressed inputs only
        (blocks of an uncompressed file are cheaper to read again than to keep); a number: that budget, for every
        input.
    verbosity
        As scanpy's: 0 errors, 1 warnings (the default), 2 info, 3 hints, 4 debug: what the engine logs on
        stderr (info from 2, debug at 4). The engine's warnings about the data are always raised as Python
        warnings (Python's warning filters decide what is shown).
    """

    def __init__(self) -> None:
        self.jar: str | os.PathLike | None = None
        self.java_opts: list[str] | None = None
        self.threads: int | None = None
        self.cache_mb: int | None = None
        self.verbosity: int = 1

    def jvm_options(self) -> list[str]:
        """The JVM options of this call: :attr:`java_opts`, else ``SCFLUX_JAVA_OPTS``."""
        if self.java_opts is not None:
            if isinstance(self.java_opts, str):
                return shlex.split(self.java_opts)
            return [str(o) for o in self.java_opts]
        return shlex.split(os.environ.get("SCFLUX_JAVA_OPTS", ""))

    def engine_threads(self) -> int:
        """The engine's workers: :attr:`threads`, else the machine's cores."""
        if self.threads is None:
            return os.cpu_count() or 1
        if isinstance(self.threads, bool) or not isinstance(self.threads, int) or self.threads < 1:
            raise ValueError(f"scflux.settings.threads must be a positive int or None, got {self.threads!r}")
        return self.threads

    def __repr__(self) -> str:
        return (f"scflux.settings(jar={self.jar!r}, java_opts={self.java_opts!r}, threads={self.threads!r}, "
                f"cache_mb={self.cache_mb!r}, verbosity={self.verbosity!r})")


settings = Settings()
