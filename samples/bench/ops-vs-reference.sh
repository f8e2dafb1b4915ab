#!/usr/bin/env bash
# The operator benchmarks: scflux preprocess, pipeline and pseudobulk next to the same steps done in memory by
# Debian's numpy/scipy/pandas/anndata the way scanpy and decoupler do them (reference_steps.py), in the same run,
# each under /usr/bin/time -v. Prints wall time and peak RSS of both and their ratios.
#
# usage: samples/bench/ops-vs-reference.sh FILE.h5ad [FILE2.h5ad ...]
#        STEPS="rgg-t-test rgg-wilcoxon" samples/bench/ops-vs-reference.sh LOG.h5ad: rank_genes_groups by cell_type,
#        on a file that is already log-normalized (scflux preprocess's output), as scanpy expects
# env:   SCFLUX (samples/target/scflux/bin/scflux, the launcher users run, with its JVM options), XMX (1g), THREADS (unset: scflux's default, the machine's cores), STEPS ("preprocess pipeline pseudobulk"), N_TOP_GENES (2000), N_COMPS (50),
#        OUT (bench-out), REFERENCE (1; 0 runs scflux only, e.g. for files the reference cannot hold in memory)
# Before each run the file is read once (cat > /dev/null), so that both tools start with it in the page cache, and the
# page cache is synced, so that neither pays for the previous run's writes.
# Needs the distribution samples/target/scflux (mvn -q -DskipTests package) and /usr/bin/python3 with anndata (python3-anndata).
set -euo pipefail
cd "$(dirname "$0")/../.."
SCFLUX=${SCFLUX:-samples/target/scflux/bin/scflux}
XMX=${XMX:-1g}
THREADS=${THREADS:-}
STEPS=${STEPS:-preprocess pipeline pseudobulk}
N_TOP_GENES=${N_TOP_GENES:-2000}
N_COMPS=${N_COMPS:-50}
OUT=${OUT:-bench-out}
REFERENCE=${REFERENCE:-1}

[ -x "$SCFLUX" ] || { echo "ops-vs-reference: $SCFLUX is missing; run: mvn -q -DskipTests package" >&2; exit 1; }
[ -x /usr/bin/time ] || .ci/apt-install time
mkdir -p "$OUT"
results="$OUT/ops-vs-reference.tsv"
: > "$results"
: > "$OUT/runs.log"

run() {  # run FILE STEP TOOL COMMAND...: appends FILE STEP TOOL wall_s peak_rss_mb exit
  local file=$1 step=$2 tool=$3; shift 3
  local status=0
  cat "$file" > /dev/null
  # what the previous run wrote goes to disk now, not while this one runs (the reference does not sync its output)
  sync
  /usr/bin/time -v -o "$OUT/time.txt" "$@" > "$OUT/last.log" 2>&1 || status=$?
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$OUT/time.txt" \
    | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$OUT/time.txt")
  [ "$status" -eq 0 ] || { echo "$tool $step failed on $file:" >&2; tail -5 "$OUT/last.log" >&2; }
  { echo "== $tool $step $file"; tail -20 "$OUT/last.log"; } >> "$OUT/runs.log"  # the reference's step timings
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$step" "$tool" "$wall" "$((rss / 1024))" "$status" >> "$results"
}

for file in "$@"; do
  for step in $STEPS; do
    out="$OUT/$(basename "$file" .h5ad)-$step"
    case $step in
      preprocess) args=(preprocess "$file" -o "$out-scflux.h5ad" --target-sum 10000 --qc-var mt=MT-) ;;
      pipeline) args=(pipeline "$file" -o "$out-scflux.h5ad" --n-top-genes "$N_TOP_GENES" --n-comps "$N_COMPS") ;;
      pseudobulk) args=(pseudobulk "$file" -o "$out-scflux.h5ad" --sample-col sample --groups-col cell_type) ;;
      rgg-*) args=(rank-genes-groups "$file" -o "$out-scflux.h5ad" --groupby cell_type --method "${step#rgg-}") ;;
    esac
    ref=(reference_steps.py "$step" "$file" "$out-reference.h5ad" --n-top-genes "$N_TOP_GENES" --n-comps "$N_COMPS")
    case $step in
      rgg-*) ref=(reference_steps.py rank_genes_groups "$file" "$out-reference.h5ad" --method "${step#rgg-}") ;;
    esac
    [ "$REFERENCE" = 0 ] || run "$file" "$step" reference /usr/bin/python3 "samples/bench/${ref[0]}" "${ref[@]:1}"
    SCFLUX_JAVA_OPTS="-Xmx$XMX" run "$file" "$step" scflux "$SCFLUX" ${THREADS:+--threads "$THREADS"} "${args[@]}"
    rm -f "$out-reference.h5ad" "$out-scflux.h5ad"
  done
done

python3 - "$results" <<'PY'
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
print(f"{'file':<34}{'step':<14}{'tool':<11}{'wall s':>8}{'peak RSS MB':>13}{'time vs ref':>13}{'RSS vs ref':>12}")
ref = {}
for f, step, tool, wall, rss, status in rows:
    if tool == "reference":
        ref[(f, step)] = (float(wall), float(rss))
for f, step, tool, wall, rss, status in rows:
    w, r = ref.get((f, step), (float("nan"), float("nan")))
    flag = "" if status == "0" else f"  (exit {status})"
    print(f"{f.split('/')[-1]:<34}{step:<14}{tool:<11}{float(wall):>8.1f}{float(rss):>13.0f}"
          f"{float(wall) / w:>13.2f}{float(rss) / r:>12.2f}{flag}")
PY
