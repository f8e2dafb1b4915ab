"""``scflux.settings``: how the Java command line is started.

One small mutable object, like ``scanpy.settings``, so that a notebook can say once which jar, which JVM options and
how many threads every later call uses. Nothing here starts Java; :mod:`scflux._cli` reads it on each call.
"""

from __future__ import annotations

import os
import shlex


class Settings:
    """What every scflux call passes to ``java -jar scflux.jar``.

    Attributes
    ----------
    jar
        Path of ``scflux.jar``; ``None`` (the default) looks it up on each call: the environment variable
        ``SCFLUX_JAR``, then ``scflux/jars/scflux.jar`` inside the installed package, then
        ``samples/target/scflux.jar`` of the source checkout the package sits in.
    java_opts
        JVM options (``["-Xmx4g"]``); ``None`` (the default) takes ``SCFLUX_JAVA_OPTS`` split as a shell would.
    threads
        ``--threads N`` for every command (workers decoding and folding blocks; results do not depend on it);
        ``None`` keeps the command line's default (the machine's cores).
    cache_mb
        The budget, in MiB, of the engine's cache of decoded blocks, which every pass of the session shares (read
        when the engine starts). ``None`` (the default): an eighth of the engine's heap, for compressed inputs only
        (blocks of an uncompressed file are cheaper to read again than to keep); a number: that budget, for every
        input.
    verbosity
        As scanpy's: 0 errors, 1 warnings (the default), 2 info, 3 hints, 4 debug. The command line's warnings are
        always raised as Python warnings (Python's warning filters decide what is shown); at 2 and above its other
        output lines are echoed on ``sys.stderr``; at 4 ``--debug`` makes it print a stack trace with an error.
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

    def global_options(self) -> list[str]:
        """The command line's global options these settings ask for (``--threads``, ``--debug``)."""
        options = []
        if self.threads is not None:
            if isinstance(self.threads, bool) or not isinstance(self.threads, int) or self.threads < 1:
                raise ValueError(f"scflux.settings.threads must be a positive int or None, got {self.threads!r}")
            options += ["--threads", str(self.threads)]
        if self.verbosity >= 4:
            options.append("--debug")
        return options

    def __repr__(self) -> str:
        return (f"scflux.settings(jar={self.jar!r}, java_opts={self.java_opts!r}, threads={self.threads!r}, "
                f"cache_mb={self.cache_mb!r}, verbosity={self.verbosity!r})")


settings = Settings()
