#!/usr/bin/python3
"""The notebook flow on scflux's container, in one process (Python and the engine together), timed per step.

usage: container_flow.py INPUT.h5ad OUTPUT.h5ad [--threads N] [--xmx 2g]

``read_h5ad`` -> ``filter_cells(min_genes=200)`` -> ``filter_genes(min_cells=3)`` -> ``var["mt"]`` set in pandas ->
``calculate_qc_metrics(qc_vars=["mt"], inplace=True)`` -> ``normalize_total(target_sum=1e4)`` -> ``log1p`` ->
``highly_variable_genes(n_top_genes=2000)`` -> ``pca(n_comps=50)`` -> ``write_h5ad``: the steps ``scflux pipeline``
runs. Prints one JSON line: each step's wall seconds, the total, the peak RSS of this process (``ru_maxrss``: Python
and the JVM in it), the engine's cache statistics and whether the input is byte-for-byte unchanged (its size and
modification time, and a hash of its first and last MiB).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def fingerprint(path: Path):
    import hashlib
    st = path.stat()
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read(1 << 20))
        f.seek(max(0, st.st_size - (1 << 20)))
        h.update(f.read())
    return st.st_size, st.st_mtime_ns, h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("input", type=Path)
    ap.add_argument("output", type=Path)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--xmx")
    args = ap.parse_args()
    import scflux
    if args.xmx:
        scflux.settings.java_opts = [f"-Xmx{args.xmx}"]
    scflux.settings.threads = args.threads
    before = fingerprint(args.input)
    seconds: dict[str, float] = {}
    started = time.perf_counter()

    def step(name, call):
        t = time.perf_counter()
        out = call()
        seconds[name] = round(time.perf_counter() - t, 2)
        return out

    adata = step("read_h5ad", lambda: scflux.read_h5ad(args.input))
    step("filter_cells", lambda: scflux.pp.filter_cells(adata, min_genes=200))
    step("filter_genes", lambda: scflux.pp.filter_genes(adata, min_cells=3))
    adata.var["mt"] = adata.var_names.str.startswith("MT-")
    step("calculate_qc_metrics", lambda: scflux.pp.calculate_qc_metrics(adata, qc_vars=["mt"], inplace=True))
    step("normalize_total", lambda: scflux.pp.normalize_total(adata, target_sum=1e4))
    step("log1p", lambda: scflux.pp.log1p(adata))
    step("highly_variable_genes", lambda: scflux.pp.highly_variable_genes(adata, n_top_genes=2000))
    step("pca", lambda: scflux.pp.pca(adata, n_comps=50))
    step("write_h5ad", lambda: adata.write_h5ad(args.output))
    total = round(time.perf_counter() - started, 2)
    from scflux import _engine
    print(json.dumps({"shape": list(adata.shape), "seconds": seconds, "total_s": total,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
                      "threads": int(_engine.session().threads()),
                      "cache": json.loads(str(_engine.session().cacheStats())),
                      "input_unchanged": fingerprint(args.input) == before}))


if __name__ == "__main__":
    main()
