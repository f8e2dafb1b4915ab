#!/usr/bin/python3
"""The tutorial's graph steps on a file's X_pca, in one process (Python and its engine), timed per step.

usage: graph_steps.py INPUT.h5ad

``read_h5ad`` -> ``pp.neighbors()`` -> ``tl.umap()`` -> ``tl.leiden(flavor="igraph", n_iterations=2)``, scanpy's
defaults; prints one JSON line: each step's wall seconds, the clusters found and the peak RSS (``ru_maxrss``).
"""

import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import scflux  # noqa: E402

t = time.time(); a = scflux.read_h5ad(sys.argv[1]); laps = {"read": round(time.time() - t, 2)}
for name, call in [("neighbors", lambda: scflux.pp.neighbors(a)),
                   ("umap", lambda: scflux.tl.umap(a)),
                   ("leiden", lambda: scflux.tl.leiden(a, flavor="igraph", n_iterations=2))]:
    t = time.time(); call(); laps[name] = round(time.time() - t, 2)
print(json.dumps({"seconds": laps, "clusters": int(a.obs["leiden"].nunique()),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}), flush=True)
