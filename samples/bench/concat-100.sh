#!/usr/bin/env bash
# scflux concat of FILES generated files of CELLS cells each under -Xmx1g (X streams block by block through the
# writer; only obs and var are held): wall time and peak RSS of the concat alone.
#
# usage: samples/bench/concat-100.sh [more scflux concat options]
# env:   FILES (100), CELLS (20000), GENES (2000), NNZ_PER_CELL (50), JOIN (inner), XMX (1g), THREADS (2),
#        OUT (bench-out)
# Needs samples/target/scflux.jar (mvn -q -DskipTests package). The inputs are generated once and kept in OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=samples/target/scflux.jar
FILES=${FILES:-100}
CELLS=${CELLS:-20000}
GENES=${GENES:-2000}
NNZ_PER_CELL=${NNZ_PER_CELL:-50}
JOIN=${JOIN:-inner}
XMX=${XMX:-1g}
THREADS=${THREADS:-2}
OUT=${OUT:-bench-out}

[ -f "$JAR" ] || { echo "concat-100: $JAR is missing; run: mvn -q -DskipTests package" >&2; exit 1; }
[ -x /usr/bin/time ] || .ci/apt-install time
mkdir -p "$OUT/concat-in"
inputs=()
for i in $(seq 1 "$FILES"); do
  f="$OUT/concat-in/s$i-$CELLS-$GENES-$NNZ_PER_CELL.h5ad"
  [ -f "$f" ] || java -Xmx512m -jar "$JAR" synth --cells "$CELLS" --genes "$GENES" --nnz-per-cell "$NNZ_PER_CELL" \
    --seed "$i" -o "$f" >/dev/null
  inputs+=("$f")
done
keys=$(seq -s, 1 "$FILES")
file="$OUT/concat-$FILES.h5ad"

status=0
/usr/bin/time -v -o "$OUT/time.txt" java -Xmx"$XMX" -jar "$JAR" --threads "$THREADS" concat "${inputs[@]}" \
  -o "$file" --join "$JOIN" --label sample_file --keys "$keys" --index-unique - "$@" || status=$?
wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$OUT/time.txt")
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time.txt")
size=$([ -f "$file" ] && du -h "$file" | cut -f1 || echo "-")
echo "concat $FILES files x $CELLS cells x $GENES genes, nnz/cell $NNZ_PER_CELL, $JOIN, -Xmx$XMX, $THREADS threads:" \
  "exit $status, wall $wall, peak RSS $((rss / 1024)) MB, file $size"
exit "$status"
