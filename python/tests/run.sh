#!/bin/sh
# The Python package's tests, as the build runs them (samples' integration-test phase, after scflux.jar is packaged):
# pytest on Debian's /usr/bin/python3, against the jar named by SCFLUX_JAR. Skipped, saying why, when that python
# cannot import pytest and anndata (apt-get install python3-pytest python3-anndata; .ci/run installs them).
set -eu
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c 'import pytest, anndata' 2>/dev/null; then
  echo "skipping the Python package's tests: $PYTHON cannot import pytest and anndata" \
    "(apt-get install python3-pytest python3-anndata)"
  exit 0
fi
cd "$(dirname "$0")/.."
exec "$PYTHON" -m pytest -q -p no:cacheprovider tests
