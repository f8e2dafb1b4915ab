#!/usr/bin/env bash
# The CUDA backend's check on a machine with a GPU (issue 5). Two steps:
#
#   samples/gpu-check.sh prepare   # where Maven works: builds everything the check needs under target/gpu-check
#                                  # (scflux.jar, test classes and fixtures, JUnit's console launcher, a jlink runtime)
#   samples/gpu-check.sh run       # on the GPU machine, with target/gpu-check carried over: runs the gpu-tagged
#                                  # tests (CUDA kernels vs the host on synth-3k, 1e-5 relative, same bits twice; a concat
#                                  # of inputs resident on the device re-indexed there, the host's bits), then
#                                  # a dataset larger than --device-mem-mb 256 on --device cuda, printing peak bytes
#
# Uses $JAVA, else the jlink runtime, else java on PATH. CELLS (default 400000) x 250 entries sets the capped run's
# size: 100 M entries, about 800 MB of int32 indices and float32 values, against a 256 MiB device cap. DEVICE=cpu
# dry-runs the capped steps on the host (SKIP_TESTS=1 skips the gpu-tagged tests).
set -euo pipefail
DEVICE="${DEVICE:-cuda}"
cd "$(dirname "$0")/.."
DIR=target/gpu-check

prepare() {
    rm -rf "$DIR" && mkdir -p "$DIR/lib"
    mvn -q -pl samples -am package -DskipTests
    mvn -q -pl flux-device -am test-compile
    mvn -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.4 \
        -DoutputDirectory="$DIR/lib"
    cp samples/target/scflux.jar "$DIR/lib/"
    for m in flux-core flux-io flux-device; do
        mkdir -p "$DIR/$m-test-classes" && cp -r "$m/target/test-classes/io" "$DIR/$m-test-classes/"
    done
    # of the fixtures, the one the gpu tests read: the whole carry must stay under 64 MiB
    mkdir -p "$DIR/flux-io-test-classes/fixtures"
    cp flux-io/src/test/resources/fixtures/synth-3k.int64.h5ad "$DIR/flux-io-test-classes/fixtures/"
    jlink --add-modules java.base,java.logging,java.management,java.naming,jdk.unsupported \
        --strip-debug --no-header-files --no-man-pages --compress=2 --output "$DIR/jre"
    du -sh "$DIR"
}

run() {
    local java="${JAVA:-}"
    if [[ -z "$java" ]]; then
        if [[ -x "$DIR/jre/bin/java" ]]; then java="$DIR/jre/bin/java"; else java=java; fi
    fi
    local opts=(--enable-native-access=ALL-UNNAMED)
    "$java" "${opts[@]}" -version >/dev/null 2>&1 || opts=()
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true

    if [[ -z "${SKIP_TESTS:-}" ]]; then
    echo "== gpu-tagged tests"
    local cp="$DIR/flux-device-test-classes:$DIR/flux-io-test-classes:$DIR/flux-core-test-classes:$DIR/lib/scflux.jar"
    "$java" "${opts[@]}" -jar "$DIR"/lib/junit-platform-console-standalone-*.jar execute --class-path "$cp" \
        --select-class io.scflux.device.CudaBackendGpuTest --include-tag gpu --details tree
    fi

    echo "== a dataset larger than the device cap"
    local work; work="$(mktemp -d)"
    local scflux=("$java" "${opts[@]}" -jar "$DIR/lib/scflux.jar")
    "${scflux[@]}" synth --cells "${CELLS:-400000}" --genes 20000 --nnz-per-cell 250 -o "$work/big.h5ad"
    ls -l "$work/big.h5ad"
    for step in "preprocess $work/big.h5ad -o $work/pp.h5ad" "hvg --flavor cell_ranger $work/pp.h5ad -o $work/hvg.h5ad" \
                "pca $work/hvg.h5ad -o $work/pca.h5ad"; do
        echo "-- scflux --device $DEVICE --device-mem-mb 256 --stats $step"
        # shellcheck disable=SC2086
        "${scflux[@]}" --device "$DEVICE" --device-mem-mb 256 --stats $step 2>&1 | tee "$work/log"
        python3 - "$work/log" "$DEVICE" <<'PY'
import json, sys
stats = [line for line in open(sys.argv[1]) if line.startswith('{"blocks"')]
device = json.loads(stats[-1])["device"]
print("device:", device)
if sys.argv[2] == "cuda":
    assert device["backend"] == "cuda", device
    assert 0 < device["peak"] <= device["cap"], "peak above the cap"
PY
    done
    rm -rf "$work"
}

case "${1:-run}" in
    prepare) prepare ;;
    run) run ;;
    *) echo "usage: $0 prepare|run" >&2; exit 2 ;;
esac
