"""The distribution ``mvn package`` builds: ``samples/target/scflux-VERSION.tar.gz`` holds the launcher, the jar,
the Python package, README, LICENSE and CHANGELOG; unpacked (``samples/target/scflux/``), ``bin/scflux`` runs the
jar with the Java it finds and ``SCFLUX_JAVA_OPTS``, and the package finds ``lib/scflux.jar`` beside it."""

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import COUNTS, ROOT, expected_csv

TARGET = ROOT / "samples" / "target"
UNPACKED = TARGET / "scflux"


def _tarball():
    found = sorted(TARGET.glob("scflux-*.tar.gz"))
    if not found or not UNPACKED.is_dir():
        pytest.skip(f"no distribution in {TARGET}: mvn package builds it")
    return found[-1]


def test_the_tarball_holds_the_launcher_the_jar_the_package_and_the_licence():
    tarball = _tarball()
    base = tarball.name[: -len(".tar.gz")]
    with tarfile.open(tarball) as t:
        members = {m.name: m for m in t.getmembers()}
    for name in ("bin/scflux", "lib/scflux.jar", "python/scflux/pp.py", "python/scflux/_java.py", "README.md",
                 "docs/command-line.md", "docs/java.md", "LICENSE", "CHANGELOG.md"):
        assert f"{base}/{name}" in members, name
    assert members[f"{base}/bin/scflux"].mode & 0o111 == 0o111, "the launcher is executable"
    assert not any("__pycache__" in n or "/tests/" in n for n in members)


def test_the_launcher_runs_the_jar_with_the_options_given(tmp_path):
    _tarball()
    launcher = UNPACKED / "bin" / "scflux"
    link = tmp_path / "scflux"  # as put on the PATH by a symbolic link
    link.symlink_to(launcher)
    # an option for the JVM shows in what the JVM reports of itself
    env = dict(os.environ, SCFLUX_JAVA_OPTS="-Dscflux.launcher.check=yes -XshowSettings:properties")
    run = subprocess.run([str(link), "--version"], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "scflux" in run.stdout
    assert "scflux.launcher.check = yes" in run.stderr


def test_the_launcher_asks_for_huge_pages_where_the_kernel_gives_them():
    _tarball()
    try:
        mode = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text()
    except OSError:
        mode = ""
    expected = "[always]" in mode or "[madvise]" in mode
    env = dict(os.environ, SCFLUX_JAVA_OPTS="-XX:+PrintFlagsFinal")
    run = subprocess.run([str(UNPACKED / "bin" / "scflux"), "--version"], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    flag = [line.split() for line in run.stdout.splitlines() if " UseTransparentHugePages " in line]
    assert flag and flag[0][3] == str(expected).lower(), (mode, flag)
    assert "warning" not in run.stderr.lower(), run.stderr


def test_the_launcher_lets_the_optimizing_compiler_wait_for_hot_code():
    _tarball()
    env = dict(os.environ, SCFLUX_JAVA_OPTS="-XX:+PrintFlagsFinal")
    run = subprocess.run([str(UNPACKED / "bin" / "scflux"), "--version"], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    flags = {line.split()[1]: line.split()[3] for line in run.stdout.splitlines()
             if " Tier4InvocationThreshold " in line or " Tier4CompileThreshold " in line}
    assert flags == {"Tier4InvocationThreshold": "20000", "Tier4CompileThreshold": "30000"}, flags
    # the user's options come after and win
    env["SCFLUX_JAVA_OPTS"] = "-XX:+PrintFlagsFinal -XX:Tier4InvocationThreshold=5000"
    run = subprocess.run([str(UNPACKED / "bin" / "scflux"), "--version"], env=env, capture_output=True, text=True)
    assert [line.split()[3] for line in run.stdout.splitlines() if " Tier4InvocationThreshold " in line] == ["5000"]


def test_the_launcher_says_when_there_is_no_java(tmp_path):
    _tarball()
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path)}  # no java on this PATH, no JAVA_HOME
    run = subprocess.run(["/bin/sh", str(UNPACKED / "bin" / "scflux"), "--version"], env=env, capture_output=True,
                         text=True)
    assert run.returncode == 1
    assert run.stderr.startswith("scflux: no Java found"), run.stderr


USE_BESIDE = """
import json, sys
import scflux, scflux._java
obs, var = scflux.pp.calculate_qc_metrics(sys.argv[1], qc_vars={"mt": "MT-"}, percent_top=(50,), out=sys.argv[2])
print(json.dumps({"jar": str(scflux._java.find_jar()), "pct_counts_mt": obs["pct_counts_mt"].tolist()}))
"""


def test_the_package_in_the_distribution_runs_the_jar_beside_it(tmp_path):
    _tarball()
    env = {k: v for k, v in os.environ.items() if k != "SCFLUX_JAR"}
    env["PYTHONPATH"] = str(UNPACKED / "python")
    run = subprocess.run([sys.executable, "-c", USE_BESIDE, str(COUNTS), str(tmp_path / "qc.h5ad")], cwd=tmp_path,
                         env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["jar"] == str(UNPACKED / "lib" / "scflux.jar")
    expected = expected_csv("qc_obs")["pct_counts_mt"].tolist()
    assert max(abs(a - b) for a, b in zip(result["pct_counts_mt"], expected)) <= 1e-6 * max(map(abs, expected))
