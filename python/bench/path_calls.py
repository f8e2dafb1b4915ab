#!/usr/bin/python3
"""The script form of the preprocessing, timed per call: five path-based calls, each rewriting the file in place.

usage: path_calls.py PACKAGE_DIR WORK.h5ad

``calculate_qc_metrics(percent_top=None, inplace=True)`` -> ``normalize_total(target_sum=1e4)`` -> ``log1p`` ->
``highly_variable_genes(n_top_genes=2000)`` -> ``pca(n_comps=50)``, on WORK.h5ad (a copy: it is rewritten), with the
scflux package found in PACKAGE_DIR (the checkout's ``python/``, or another version's, to compare two in one run).
Prints one line: the total and each call's wall seconds. Run it under ``/usr/bin/time -f %M`` for the peak RSS.
"""

import sys
import time

sys.path.insert(0, sys.argv[1])
import scflux  # noqa: E402

path = sys.argv[2]
calls = [("qc", lambda: scflux.pp.calculate_qc_metrics(path, percent_top=None, inplace=True)),
         ("normalize", lambda: scflux.pp.normalize_total(path, target_sum=1e4)),
         ("log1p", lambda: scflux.pp.log1p(path)),
         ("hvg", lambda: scflux.pp.highly_variable_genes(path, n_top_genes=2000)),
         ("pca", lambda: scflux.pp.pca(path, n_comps=50))]
start, laps = time.time(), []
for name, call in calls:
    t = time.time()
    call()
    laps.append(f"{name} {time.time() - t:.1f}")
print(f"total {time.time() - start:.1f} s: " + ", ".join(laps), flush=True)
