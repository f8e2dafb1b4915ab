#!/usr/bin/env bash
# scflux synth of 2,000,000 cells under -Xmx512m (the writer streams; the matrix is never held): wall time, peak RSS.
#
# usage: samples/bench/synth-2m.sh [more scflux synth options]
# env:   CELLS (2000000), GENES (2000), NNZ_PER_CELL (400), XMX (512m), THREADS (2), COMPRESSION (none),
#        OUT (bench-out)
# Needs samples/target/scflux.jar (mvn -q -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=samples/target/scflux.jar
CELLS=${CELLS:-2000000}
GENES=${GENES:-2000}
NNZ_PER_CELL=${NNZ_PER_CELL:-400}
XMX=${XMX:-512m}
THREADS=${THREADS:-2}
COMPRESSION=${COMPRESSION:-none}
OUT=${OUT:-bench-out}

[ -f "$JAR" ] || { echo "synth-2m: $JAR is missing; run: mvn -q -DskipTests package" >&2; exit 1; }
[ -x /usr/bin/time ] || .ci/apt-install time
mkdir -p "$OUT"
file="$OUT/synth-$CELLS.h5ad"

status=0
/usr/bin/time -v -o "$OUT/time.txt" java -Xmx"$XMX" -jar "$JAR" --threads "$THREADS" synth --cells "$CELLS" \
  --genes "$GENES" --nnz-per-cell "$NNZ_PER_CELL" --compression "$COMPRESSION" -o "$file" "$@" || status=$?
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$OUT/time.txt")
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time.txt")
size=$([ -f "$file" ] && du -h "$file" | cut -f1 || echo "-")
echo "synth $CELLS x $GENES, nnz/cell $NNZ_PER_CELL, $COMPRESSION, -Xmx$XMX, $THREADS threads: exit $status," \
  "wall $wall, peak RSS $((rss / 1024)) MB, file $size"
exit "$status"
