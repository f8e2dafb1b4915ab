"""The package installs offline as pure Python (``pip install --no-build-isolation --no-deps``) and works from
where it was installed, finding the jar through SCFLUX_JAR; the distribution's wheel installs with the jar inside."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from conftest import COUNTS, PYTHON, expected_csv

USES_INSTALLED = """
import json, sys
import scflux
obs, var = scflux.pp.calculate_qc_metrics(sys.argv[1], qc_vars={"mt": "MT-"}, percent_top=(50,), out=sys.argv[2])
print(json.dumps({"file": scflux.__file__, "version": scflux.__version__,
                  "pct_counts_mt": obs["pct_counts_mt"].tolist()}))
"""


def test_pip_install_target_then_import_from_there(jar, tmp_path):
    source = tmp_path / "src"  # a copy, so that the build leaves nothing in the checkout
    shutil.copytree(PYTHON, source, ignore=shutil.ignore_patterns("tests", "bench", "build", "*.egg-info",
                                                                  "__pycache__"))
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                    "--quiet", "--target", str(target), str(source)], check=True,
                   env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    assert (target / "scflux" / "pp.py").exists()
    env = dict(os.environ, PYTHONPATH=str(target), SCFLUX_JAR=str(jar))
    run = subprocess.run([sys.executable, "-c", USES_INSTALLED, str(COUNTS), str(tmp_path / "qc.h5ad")],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["file"].startswith(str(target))
    assert result["version"] == "0.1.0"
    np.testing.assert_allclose(result["pct_counts_mt"], expected_csv("qc_obs")["pct_counts_mt"], rtol=1e-6)


USES_THE_WHEEL = """
import json, os, sys
import scflux
from scflux import _java
adata = scflux.read_h5ad(sys.argv[1])
scflux.pp.calculate_qc_metrics(adata, qc_vars={"mt": "MT-"}, percent_top=(50,), inplace=True)
print(json.dumps({"file": scflux.__file__, "jar": str(_java.find_jar()), "SCFLUX_JAR": os.environ.get("SCFLUX_JAR"),
                  "pct_counts_mt": adata.obs["pct_counts_mt"].tolist()}))
"""


def test_the_wheel_installs_with_its_jar_and_runs_the_container(engine, tmp_path):
    """The distribution's wheel (built by mvn package) installed offline: ``import scflux`` finds the jar inside it,
    with no SCFLUX_JAR, and its engine runs a step."""
    wheels = sorted((PYTHON.parent / "samples" / "target").glob("scflux-*-py3-none-any.whl"))
    if not wheels:
        pytest.skip("no wheel in samples/target: mvn package builds it (with python3)")
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", "--target",
                    str(target), str(wheels[-1])], check=True,
                   env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    env = {k: v for k, v in os.environ.items() if k != "SCFLUX_JAR"}
    env["PYTHONPATH"] = str(target)
    run = subprocess.run([sys.executable, "-c", USES_THE_WHEEL, str(COUNTS)], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["SCFLUX_JAR"] is None
    assert result["file"].startswith(str(target)) and result["jar"] == str(target / "scflux" / "jars" / "scflux.jar")
    np.testing.assert_allclose(result["pct_counts_mt"], expected_csv("qc_obs")["pct_counts_mt"], rtol=1e-6)
