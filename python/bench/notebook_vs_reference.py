#!/usr/bin/python3
"""The scanpy notebook flow on a Cell Ranger .h5, done by scflux.pp on files against the same steps done in memory.

usage: notebook_vs_reference.py INPUT.h5 [--workdir DIR] [--xmx 4g] [--threads 2] [--read memory|backed]
                                [--only scflux|reference]

(a) scflux: ``filter_cells(min_genes=200, out=work.h5ad)``, ``filter_genes(min_cells=3)``,
    ``calculate_qc_metrics(qc_vars={"mt": "MT-"}, inplace=True)``, ``normalize_total(target_sum=1e4)``, ``log1p``,
    ``highly_variable_genes(n_top_genes=2000)``, ``pca(n_comps=50)``, then ``anndata.read_h5ad(work.h5ad)`` (in memory,
    or backed with ``--read backed``).
(b) reference: what ``sc.read_10x_h5`` and the same ``sc.pp`` calls do, with numpy/scipy/pandas/anndata only (scanpy
    is not packaged by Debian): the Cell Ranger file read as scanpy reads it, the filters as scanpy filters, and
    qc, normalize_total + log1p, highly_variable_genes (seurat) and pca (arpack) from
    ``samples/bench/reference_steps.py``, imported from there.

Each runs in its own child process; its wall time and peak RSS (``ru_maxrss`` of the child from ``wait4``: the
largest of the process and the processes it waited for, i.e. Python or the Java commands it ran) are printed with
the step timings as one JSON line. An ``.h5ad`` input works too (its X must be counts).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYTHON = HERE.parent
REFERENCE_STEPS = PYTHON.parent / "samples" / "bench" / "reference_steps.py"


class Steps:
    """Times named steps: ``with steps("log1p"): ...``."""

    def __init__(self):
        self.seconds: dict[str, float] = {}

    def __call__(self, name):
        steps = self

        class _Timer:
            def __enter__(self):
                self.start = time.perf_counter()

            def __exit__(self, *exc):
                steps.seconds[name] = round(time.perf_counter() - self.start, 3)

        return _Timer()


# ----------------------------------------------------------------------------------------------- (a) scflux flow

def run_scflux(source: Path, workdir: Path, read: str) -> dict:
    sys.path.insert(0, str(PYTHON))
    import anndata
    import scflux

    work = workdir / "work.h5ad"
    steps = Steps()
    with steps("filter_cells"):
        scflux.pp.filter_cells(source, min_genes=200, out=work)
    with steps("filter_genes"):
        scflux.pp.filter_genes(work, min_cells=3)
    with steps("calculate_qc_metrics"):
        scflux.pp.calculate_qc_metrics(work, qc_vars={"mt": "MT-"}, inplace=True)
    with steps("normalize_total"):
        scflux.pp.normalize_total(work, target_sum=1e4)
    with steps("log1p"):
        scflux.pp.log1p(work)
    with steps("highly_variable_genes"):
        scflux.pp.highly_variable_genes(work, n_top_genes=2000)
    with steps("pca"):
        scflux.pp.pca(work, n_comps=50)
    with steps("read_h5ad"):
        adata = anndata.read_h5ad(work, backed="r" if read == "backed" else None)
    shape = adata.shape
    if adata.isbacked:
        adata.file.close()
    work.unlink()
    return {"steps": steps.seconds, "shape": list(shape),
            "python_rss_mb": _mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
            "largest_java_rss_mb": _mb(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)}


# -------------------------------------------------------------------------------------------- (b) in-memory reference

def _reference_steps():
    spec = importlib.util.spec_from_file_location("reference_steps", REFERENCE_STEPS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_10x_h5(path: Path):
    """What ``sc.read_10x_h5(path)`` returns (Gene Expression features, X CSR float32), then
    ``var_names_make_unique()``, with h5py and scipy."""
    import anndata
    import h5py
    import numpy as np
    import pandas as pd
    import scipy.sparse as sp

    def text(values):
        return np.array([v.decode() if isinstance(v, bytes) else str(v) for v in values], dtype=object)

    with h5py.File(path, "r") as f:
        if "obs" in f:  # an .h5ad
            adata = anndata.read_h5ad(path)
            adata.X = sp.csr_matrix(adata.X, dtype=np.float32)
            return adata
        legacy = "matrix" not in f
        g = f[next(iter(f.keys()))] if legacy else f["matrix"]
        n_features, n_cells = (int(n) for n in g["shape"][:])
        x = sp.csr_matrix((g["data"][:].astype(np.float32), g["indices"][:], g["indptr"][:]),
                          shape=(n_cells, n_features))
        obs = pd.DataFrame(index=pd.Index(text(g["barcodes"][:])))
        if legacy:
            var = pd.DataFrame({"gene_ids": text(g["genes"][:])}, index=pd.Index(text(g["gene_names"][:])))
        else:
            feat = g["features"]
            var = pd.DataFrame({"gene_ids": text(feat["id"][:]), "feature_types": text(feat["feature_type"][:]),
                                "genome": text(feat["genome"][:])}, index=pd.Index(text(feat["name"][:])))
    adata = anndata.AnnData(X=x, obs=obs, var=var, dtype=np.float32)
    if "feature_types" in adata.var:
        adata = adata[:, (adata.var["feature_types"] == "Gene Expression").to_numpy()].copy()
    adata.var_names_make_unique()
    return adata


def run_reference(source: Path) -> dict:
    import numpy as np
    import scipy.sparse as sp

    ref = _reference_steps()
    steps = Steps()
    with steps("read_10x_h5"):
        a = read_10x_h5(source)
    with steps("filter_cells"):  # scanpy: n_genes = (X > 0).sum(1) >= 200, then subset
        n_genes = np.asarray((a.X > 0).sum(axis=1)).ravel()
        keep = n_genes >= 200
        a.obs["n_genes"] = n_genes
        a._inplace_subset_obs(keep)
    with steps("filter_genes"):
        n_cells = np.asarray((a.X > 0).sum(axis=0)).ravel()
        keep = n_cells >= 3
        a.var["n_cells"] = n_cells
        a._inplace_subset_var(keep)
    a.X = sp.csr_matrix((a.X.data, a.X.indices.astype(np.int32), a.X.indptr.astype(np.int64)), shape=a.X.shape)
    with steps("calculate_qc_metrics"):
        ref.qc(a, percent_top=(50, 100, 200, 500))
    with steps("normalize_total+log1p"):
        ref.normalize_log1p(a, np.float32(1e4))
    with steps("highly_variable_genes"):
        ref.hvg_seurat(a, 2000)
    with steps("pca"):
        ref.pca(a, 50)
    return {"steps": steps.seconds, "shape": list(a.shape)}


# ------------------------------------------------------------------------------------------------------- driver

def _mb(kilobytes: int) -> float:
    return round(kilobytes / 1024, 1)


def measure(tool: str, args: argparse.Namespace) -> dict:
    """Runs this script as a child doing one flow; wall time and ``ru_maxrss`` from ``wait4``."""
    with tempfile.TemporaryFile(mode="w+") as out:
        env = dict(os.environ)
        if args.xmx:
            env["SCFLUX_JAVA_OPTS"] = f"-Xmx{args.xmx} " + env.get("SCFLUX_JAVA_OPTS", "")
        if args.threads:
            env["SCFLUX_BENCH_THREADS"] = str(args.threads)
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, __file__, "--child", tool, str(args.input),
                                  "--workdir", str(args.workdir), "--read", args.read], stdout=out, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        lines = out.read().strip().splitlines()
    result = {"wall_s": round(wall, 2), "peak_rss_mb": _mb(usage.ru_maxrss),
              "exit": os.waitstatus_to_exitcode(status)}
    if result["exit"] == 0 and lines:
        result.update(json.loads(lines[-1]))
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", type=Path, help="Cell Ranger .h5 (or .h5ad of counts)")
    p.add_argument("--workdir", type=Path, default=None, help="where scflux writes work.h5ad (default: a temp dir)")
    p.add_argument("--xmx", default="4g", help="java -Xmx of the scflux commands (default 4g; '' for none)")
    p.add_argument("--threads", type=int, default=2, help="scflux --threads (default 2)")
    p.add_argument("--read", choices=["memory", "backed"], default="memory",
                   help="how the scflux result is read at the end (default: memory, as anndata.read_h5ad)")
    p.add_argument("--only", choices=["scflux", "reference"], default=None)
    p.add_argument("--child", choices=["scflux", "reference"], help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:  # one flow, in this child process: print its step timings
        if args.child == "scflux":
            if os.environ.get("SCFLUX_BENCH_THREADS"):
                sys.path.insert(0, str(PYTHON))
                import scflux
                scflux.settings.threads = int(os.environ["SCFLUX_BENCH_THREADS"])
            print(json.dumps(run_scflux(args.input, args.workdir, args.read)))
        else:
            print(json.dumps(run_reference(args.input)))
        return
    if not args.input.exists():
        p.error(f"{args.input} does not exist")
    with tempfile.TemporaryDirectory(dir=args.workdir) as folder:
        args.workdir = Path(folder)
        report = {"input": str(args.input), "xmx": args.xmx, "threads": args.threads, "read": args.read}
        for tool in ("scflux", "reference"):
            if args.only in (None, tool):
                report[tool] = measure(tool, args)
    if all(report.get(tool, {}).get("exit") == 0 for tool in ("scflux", "reference")):
        report["same_shape"] = report["scflux"]["shape"] == report["reference"]["shape"]
        report["time_vs_reference"] = round(report["scflux"]["wall_s"] / report["reference"]["wall_s"], 3)
        report["rss_vs_reference"] = round(report["scflux"]["peak_rss_mb"] / report["reference"]["peak_rss_mb"], 3)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
