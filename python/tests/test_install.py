"""The package installs offline as pure Python (``pip install --no-build-isolation --no-deps``) and works from
where it was installed, finding the jar through SCFLUX_JAR."""

import json
import os
import shutil
import subprocess
import sys

import numpy as np

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
