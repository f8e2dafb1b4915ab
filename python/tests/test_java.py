"""How the engine is found and started, and how its errors and warnings reach Python: each error kind is its builtin
exception, the jar is found in its documented order, the user's JVM options and threads reach the engine, options a
JVM refuses are one clear error in a process that goes on, and the engine's warnings point at the caller's line."""

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import scflux
from scflux import _engine, _java
from conftest import COUNTS, FIXTURES, PYTHON

#: A Java exception of each error kind, and the builtin exception a Python user catches for it.
KINDS = {"java.nio.file.NoSuchFileException": ("not_found", FileNotFoundError),
         "java.nio.file.AccessDeniedException": ("permission", PermissionError),
         "io.scflux.core.anndata.MissingColumnException": ("missing_key", KeyError),
         "java.lang.IllegalArgumentException": ("invalid", ValueError),
         "java.io.IOException": ("io", OSError),
         "java.lang.IllegalStateException": ("internal", RuntimeError)}


@pytest.mark.parametrize("name", KINDS)
def test_each_error_kind_is_its_builtin_exception(engine, name):
    kind, builtin = KINDS[name]
    error = _engine.error(_engine.java(name)("in.h5ad: /X: broken"))
    assert isinstance(error, builtin) and isinstance(error, scflux.ScfluxError)
    assert error.kind == kind and "in.h5ad: /X: broken" in str(error)


def test_a_missing_column_the_engine_finds_is_a_key_error(engine):
    adata = scflux.read_h5ad(COUNTS)
    j = adata._java(x=adata._x)  # the engine's container, without the obs columns
    with pytest.raises(KeyError, match="nope") as e:
        _engine.wait(_engine.call(engine.run, "highly_variable_genes", j, {"batch_key": "nope"}))
    assert e.value.kind == "missing_key"


def _child(code: str, **env) -> subprocess.CompletedProcess:
    """Runs ``code`` in a Python of its own (a JVM starts once per process), with ``env`` added."""
    script = f"import sys; sys.path.insert(0, {str(PYTHON)!r}); import scflux\n{code}"
    return subprocess.run([sys.executable, "-c", script], env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("options, reason", [("-Xmx1k", "Too small maximum heap"),
                                             ("-Xfoo", "Unrecognized option: -Xfoo")])
def test_jvm_options_a_jvm_refuses_are_one_clear_error_and_the_process_goes_on(jar, options, reason):
    done = _child("try:\n    scflux.read_h5ad(" + repr(str(COUNTS)) + ")\n"
                  "except ValueError as e:\n    print(e)\nprint('went on')", SCFLUX_JAVA_OPTS=options)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "went on"
    assert lines[0].startswith(f"java could not start scflux with the JVM options {options} "
                               "(scflux.settings.java_opts or SCFLUX_JAVA_OPTS): "), lines
    assert reason in lines[0]


def test_the_users_jvm_options_win_and_threads_reach_the_engine(jar):
    done = _child("scflux.settings.threads = 3\n"
                  "from scflux import _engine\n"
                  "s = _engine.session()\n"
                  "print(int(_engine.java('java.lang.Runtime').getRuntime().maxMemory()) >> 20, int(s.threads()))",
                  SCFLUX_JAVA_OPTS="-Xmx2g")
    assert done.returncode == 0, done.stderr
    heap_mb, threads = map(int, done.stdout.split())
    assert 1800 < heap_mb <= 2048, "-Xmx2g, after the engine's -Xmx1g, wins"
    assert 1 <= threads <= 3, "settings.threads, or fewer when the memory budget holds fewer blocks"


@pytest.mark.parametrize("threads", [0, -1, 1.5, True])
def test_threads_that_are_no_positive_int_are_refused(threads, monkeypatch):
    monkeypatch.setattr(scflux.settings, "threads", threads)
    with pytest.raises(ValueError, match="scflux.settings.threads"):
        scflux.settings.engine_threads()


def test_the_engines_warnings_point_at_the_callers_line(engine):
    adata = scflux.read_h5ad(COUNTS)
    scflux.pp.log1p(adata)
    with pytest.warns(UserWarning, match="non-integers") as record:
        scflux.pp.highly_variable_genes(adata, flavor="seurat_v3", n_top_genes=100)
    assert record[0].filename == __file__


def test_check_values_false_drops_the_non_integer_warning(engine):
    adata = scflux.read_h5ad(COUNTS)
    scflux.pp.log1p(adata)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scflux.pp.highly_variable_genes(adata, flavor="seurat_v3", n_top_genes=100, check_values=False)


# ------------------------------------------------------------------------------------------------ finding the jar

@pytest.fixture
def layout(tmp_path, monkeypatch):
    """A fake installation: the package folder inside a checkout, no SCFLUX_JAR, no settings.jar."""
    package = tmp_path / "checkout" / "python" / "scflux"
    package.mkdir(parents=True)
    monkeypatch.setattr(_java, "_PACKAGE_DIR", package)
    monkeypatch.delenv("SCFLUX_JAR", raising=False)
    monkeypatch.setattr(scflux.settings, "jar", None)
    return tmp_path, package


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    return path


def test_jar_lookup_order(layout, monkeypatch):
    root, package = layout
    with pytest.raises(FileNotFoundError, match="SCFLUX_JAR"):
        _java.find_jar()
    checkout = touch(root / "checkout" / "samples" / "target" / "scflux.jar")
    assert _java.find_jar() == checkout
    bundled = touch(package / "jars" / "scflux.jar")
    assert _java.find_jar() == bundled
    env = touch(root / "env.jar")
    monkeypatch.setenv("SCFLUX_JAR", str(env))
    assert _java.find_jar() == env
    chosen = touch(root / "chosen.jar")
    monkeypatch.setattr(scflux.settings, "jar", chosen)
    assert _java.find_jar() == chosen


def test_a_named_jar_that_does_not_exist_is_an_error(layout, monkeypatch):
    root, _ = layout
    touch(root / "checkout" / "samples" / "target" / "scflux.jar")
    monkeypatch.setenv("SCFLUX_JAR", str(root / "nope.jar"))
    with pytest.raises(FileNotFoundError, match="nope.jar"):
        _java.find_jar()


def test_java_home_is_preferred(tmp_path, monkeypatch):
    java = touch(tmp_path / "jdk" / "bin" / "java")
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    assert _java.find_java() == str(java)


# ------------------------------------------------------------------------------------------ the real engine's errors

def test_a_damaged_file_is_a_value_error_naming_it(jar, tmp_path):
    with pytest.raises(ValueError, match="bad-shape.h5ad") as e:
        scflux.pp.log1p(FIXTURES / "bad-shape.h5ad", out=tmp_path / "o.h5ad")
    assert e.value.kind == "invalid"


def test_a_file_the_engine_cannot_find_is_not_found(engine, tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.h5ad") as e:
        _engine.call(engine.read, str(tmp_path / "missing.h5ad"), None, True)
    assert e.value.kind == "not_found"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_output_is_a_permission_error(jar, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(PermissionError):
        scflux.pp.log1p(COUNTS, out=locked / "o.h5ad")
