"""How the command line is found and started, and how its errors and warnings reach Python: the brief's mapping
of error kinds to builtin exceptions, checked on stderr text and on the real jar."""

import os
import warnings
from pathlib import Path

import pytest

import scflux
from scflux import _cli
from conftest import COUNTS, FIXTURES

KINDS = {"not_found": FileNotFoundError, "permission": PermissionError, "missing_key": KeyError,
         "invalid": ValueError, "usage": ValueError, "io": OSError, "internal": RuntimeError}


@pytest.mark.parametrize("kind", KINDS)
def test_each_error_kind_is_its_builtin_exception(kind):
    stderr = f"scflux: note\nscflux: error: in.h5ad: /X: broken\nscflux: error-kind: {kind}\n"
    error = _cli.error_from(1, stderr, ["qc", "in.h5ad"])
    assert isinstance(error, KINDS[kind]) and isinstance(error, scflux.ScfluxError)
    assert str(error) == "in.h5ad: /X: broken"
    assert error.kind == kind and error.returncode == 1 and error.command == ["qc", "in.h5ad"]


@pytest.mark.parametrize("status, builtin", [(2, ValueError), (1, RuntimeError)])
def test_without_a_kind_line_the_exit_status_decides(status, builtin):
    error = _cli.error_from(status, "Unknown option: '--bogus'\nUsage: scflux qc ...\n")
    assert isinstance(error, builtin) and str(error) == "Unknown option: '--bogus'"


def test_a_jvm_that_did_not_start_is_one_error_with_javas_reason(monkeypatch):
    monkeypatch.setattr(scflux.settings, "java_opts", "-Xmx1k")
    error = _cli.error_from(1, "", ["log1p", "in.h5ad"],
                            stdout="Error occurred during initialization of VM\nToo small maximum heap\n")
    assert isinstance(error, ValueError) and isinstance(error, scflux.ScfluxError)
    assert str(error) == ("java could not start scflux with the JVM options -Xmx1k (scflux.settings.java_opts or "
                          "SCFLUX_JAVA_OPTS): Too small maximum heap")


def test_an_unknown_jvm_option_is_named_with_javas_reason(monkeypatch):
    monkeypatch.setattr(scflux.settings, "java_opts", ["-Xfoo"])
    error = _cli.error_from(1, "Unrecognized option: -Xfoo\nError: Could not create the Java Virtual Machine.\n"
                               "Error: A fatal exception has occurred. Program will exit.\n")
    assert str(error).endswith("with the JVM options -Xfoo (scflux.settings.java_opts or SCFLUX_JAVA_OPTS): "
                               "Unrecognized option: -Xfoo")


def test_a_command_killed_by_a_signal_says_which():
    error = _cli.error_from(-9, "")
    assert isinstance(error, RuntimeError) and "killed by SIGKILL" in str(error)


def test_a_too_small_heap_in_the_settings_is_one_clear_error(jar, monkeypatch, tmp_path):
    monkeypatch.setattr(scflux.settings, "java_opts", "-Xmx1k")
    with pytest.raises(ValueError, match=r"^java could not start scflux with the JVM options -Xmx1k .*: "
                                         r"Too small maximum heap$"):
        scflux.pp.log1p(COUNTS, out=tmp_path / "out.h5ad")
    assert list(tmp_path.iterdir()) == []


def test_warning_lines_become_user_warnings_pointing_at_the_caller():
    with pytest.warns(UserWarning, match="Some cells have zero counts") as record:
        rest = _cli.forward_warnings(["scflux: warning: Some cells have zero counts", "wrote out.h5ad"])
    assert rest == ["wrote out.h5ad"]
    assert record[0].filename == __file__


def test_a_dropped_warning_is_not_raised():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _cli.forward_warnings(["scflux: warning: non-integers were found"], drop=lambda m: "integer" in m)


# ------------------------------------------------------------------------------------------------ finding the jar

@pytest.fixture
def layout(tmp_path, monkeypatch):
    """A fake installation: the package folder inside a checkout, no SCFLUX_JAR, no settings.jar."""
    package = tmp_path / "checkout" / "python" / "scflux"
    package.mkdir(parents=True)
    monkeypatch.setattr(_cli, "_PACKAGE_DIR", package)
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
        _cli.find_jar()
    checkout = touch(root / "checkout" / "samples" / "target" / "scflux.jar")
    assert _cli.find_jar() == checkout
    bundled = touch(package / "jars" / "scflux.jar")
    assert _cli.find_jar() == bundled
    env = touch(root / "env.jar")
    monkeypatch.setenv("SCFLUX_JAR", str(env))
    assert _cli.find_jar() == env
    chosen = touch(root / "chosen.jar")
    monkeypatch.setattr(scflux.settings, "jar", chosen)
    assert _cli.find_jar() == chosen


def test_a_named_jar_that_does_not_exist_is_an_error(layout, monkeypatch):
    root, _ = layout
    touch(root / "checkout" / "samples" / "target" / "scflux.jar")
    monkeypatch.setenv("SCFLUX_JAR", str(root / "nope.jar"))
    with pytest.raises(FileNotFoundError, match="nope.jar"):
        _cli.find_jar()


def test_java_home_is_preferred(tmp_path, monkeypatch):
    java = touch(tmp_path / "jdk" / "bin" / "java")
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    assert _cli.find_java() == str(java)


def test_command_line_carries_jvm_options_and_threads(layout, monkeypatch):
    root, _ = layout
    monkeypatch.setattr(_cli, "HUGE_PAGES", root / "no-such-file")
    jar = touch(root / "a.jar")
    monkeypatch.setenv("SCFLUX_JAR", str(jar))
    monkeypatch.setenv("SCFLUX_JAVA_OPTS", "-Xmx2g -Dx='a b'")
    monkeypatch.setattr(_cli, "find_java", lambda: "java")
    monkeypatch.setattr(scflux.settings, "threads", 4)
    jit = ["-XX:Tier4InvocationThreshold=20000", "-XX:Tier4CompileThreshold=30000"]
    assert _cli.command_line(["qc", "in.h5ad"]) == ["java", *jit, "-Xmx2g", "-Dx=a b", "-jar", str(jar), "--threads",
                                                    "4", "qc", "in.h5ad"]
    # the user's options come after ours, so that theirs win
    monkeypatch.setattr(scflux.settings, "java_opts", ["-Xmx1g", "-XX:Tier4InvocationThreshold=5000"])
    assert _cli.command_line(["qc"])[1:6] == [*jit, "-Xmx1g", "-XX:Tier4InvocationThreshold=5000", "-jar"]
    monkeypatch.setattr(scflux.settings, "threads", 0)
    with pytest.raises(ValueError, match="threads"):
        _cli.command_line(["qc"])


@pytest.mark.parametrize("mode, asked", [("always [madvise] never\n", True), ("[always] madvise never\n", True),
                                         ("always madvise [never]\n", False), (None, False)])
def test_huge_pages_are_asked_for_where_the_kernel_gives_them(tmp_path, monkeypatch, mode, asked):
    enabled = tmp_path / "enabled"
    if mode is not None:
        enabled.write_text(mode)
    monkeypatch.setattr(_cli, "HUGE_PAGES", enabled)
    monkeypatch.setattr(_cli, "find_java", lambda: "java")
    monkeypatch.setenv("SCFLUX_JAR", str(touch(tmp_path / "a.jar")))
    monkeypatch.setenv("SCFLUX_JAVA_OPTS", "-XX:-UseTransparentHugePages")
    line = _cli.command_line(["qc"])
    # the user's options come after, so that theirs win
    users = line.index("-XX:-UseTransparentHugePages")
    assert ("-XX:+UseTransparentHugePages" in line[:users]) == asked
    assert "-XX:+UseTransparentHugePages" not in line[users:]
    assert line[users + 1] == "-jar"


# ------------------------------------------------------------------------------------------- the real jar's errors

def test_missing_column_in_the_command_line_is_a_key_error(jar, tmp_path):
    with pytest.raises(KeyError, match="nope") as e:
        _cli.run(["hvg", str(COUNTS), "-o", str(tmp_path / "o.h5ad"), "--batch-key", "nope"])
    assert e.value.kind == "missing_key"


def test_a_damaged_file_is_a_value_error_naming_it(jar, tmp_path):
    with pytest.raises(ValueError, match="bad-shape.h5ad") as e:
        scflux.pp.log1p(FIXTURES / "bad-shape.h5ad", out=tmp_path / "o.h5ad")
    assert e.value.kind == "invalid"


def test_a_missing_input_of_the_command_line_is_not_found(jar, tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        _cli.run(["log1p", str(tmp_path / "missing.h5ad"), "-o", str(tmp_path / "o.h5ad")])
    assert e.value.kind == "not_found"


def test_an_unknown_option_is_a_usage_value_error(jar, tmp_path):
    with pytest.raises(ValueError, match="bogus") as e:
        _cli.run(["log1p", str(COUNTS), "-o", str(tmp_path / "o.h5ad"), "--bogus"])
    assert e.value.kind == "usage"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_output_is_a_permission_error(jar, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(PermissionError):
        scflux.pp.log1p(COUNTS, out=locked / "o.h5ad")
