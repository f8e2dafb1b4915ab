#!/bin/sh
# The wheel with the jar inside, as the build makes it (samples' package phase, after scflux.jar is shaded):
# python/build_wheel.py on python3, standard library only. Skipped, saying why, where there is no python3: the
# distribution then ships the Python package's sources without the wheel.
# usage: build_wheel.sh JAR OUT_DIR
set -eu
if ! command -v python3 >/dev/null 2>&1; then
  echo "skipping the Python wheel: no python3 on the PATH"
  exit 0
fi
exec python3 "$(dirname "$0")/build_wheel.py" "$@"
