#!/usr/bin/env bash
# Read throughput of scflux next to h5py on the same file, in the same run: both stream all of X in the same row
# slices (scflux's block plan), under /usr/bin/time -v. Prints a table of nnz/s, MB/s (stored bytes of values and
# indices), the ratio to h5py and the peak RSS of each run.
#
# usage: samples/bench/read-throughput.sh FILE.h5ad
#        samples/bench/read-throughput.sh --cells N --genes G [other scflux synth options]   (generates the file)
# env:   XMX (1g), REPEAT (3), THREADS ("1 2"), CHUNK_NNZ (scflux's default), OUT (bench-out)
# Needs samples/target/scflux.jar (mvn -q -DskipTests package) and /usr/bin/python3 with h5py (python3-anndata).
set -euo pipefail
cd "$(dirname "$0")/../.."
JAR=samples/target/scflux.jar
XMX=${XMX:-1g}
REPEAT=${REPEAT:-3}
THREADS=${THREADS:-1 2}
OUT=${OUT:-bench-out}
CHUNK_NNZ=${CHUNK_NNZ:-4194304}   # io.scflux.core.PlanTarget.DEFAULT_CHUNK_NNZ

[ -f "$JAR" ] || { echo "read-throughput: $JAR is missing; run: mvn -q -DskipTests package" >&2; exit 1; }
[ -x /usr/bin/time ] || .ci/apt-install time
mkdir -p "$OUT"

if [ $# -eq 1 ]; then
  file=$1
else
  file="$OUT/synth$(printf ' %s' "$@" | sed 's/ --*/-/g; s/[^A-Za-z0-9.-]/_/g').h5ad"
  echo "generating $file" >&2
  java -Xmx"$XMX" -jar "$JAR" --threads 2 synth "$@" -o "$file" >&2
fi

results="$OUT/read-throughput.jsonl"
: > "$results"
measure() {  # measure LABEL COMMAND...: runs COMMAND under /usr/bin/time -v, appends its JSON line plus peak RSS
  local label=$1; shift
  local json
  json=$(/usr/bin/time -v -o "$OUT/time.txt" "$@")
  local rss
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time.txt")
  python3 -c 'import json, sys; r = json.loads(sys.argv[1]); r["label"] = sys.argv[2]; r["peak_rss_kb"] = int(sys.argv[3]); print(json.dumps(r))' \
    "$json" "$label" "$rss" >> "$results"
}

measure "h5py" /usr/bin/python3 samples/bench/h5py_read.py "$file" --chunk-nnz "$CHUNK_NNZ" --repeat "$REPEAT"
for t in $THREADS; do
  measure "scflux $t thread(s)" java -Xmx"$XMX" -jar "$JAR" bench read "$file" --threads "$t" \
    --chunk-nnz "$CHUNK_NNZ" --repeat "$REPEAT"
done

python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
ref = next(r for r in rows if r["tool"] == "h5py")
first = rows[0]
print(f"{first['file']}: {first['n_obs']} x {first['n_vars']}, nnz {first['nnz']}, {first['compression']}, "
      f"{first['blocks']} blocks of ~{first['chunk_nnz']} nnz; best of {len(first['seconds'])} passes")
print(f"{'reader':<22}{'nnz/s':>14}{'MB/s':>10}{'vs h5py':>9}{'peak RSS MB':>13}{'x_sum':>16}")
for r in rows:
    print(f"{r['label']:<22}{r['nnz_per_s']:>14.4g}{r['mb_per_s']:>10.1f}{r['nnz_per_s'] / ref['nnz_per_s']:>9.2f}"
          f"{r['peak_rss_kb'] / 1024:>13.0f}{r['x_sum']:>16.10g}")
PY
