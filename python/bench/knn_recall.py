#!/usr/bin/python3
"""The approximate kNN's recall against the exact one, on the first cells of a file's X_pca.

usage: knn_recall.py INPUT.h5ad [--cells 20000]

Runs ``scflux.pp.neighbors`` (15 neighbours; above 8,192 cells the approximate search) on the first ``--cells`` cells
of INPUT's obsm ``X_pca`` and counts, for each cell, its 14 others that are no farther than its exact 14th nearest
(ties count), computed here with numpy in float64 blocks. Prints the time of the search and the recall.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import scflux  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("input")
parser.add_argument("--cells", type=int, default=20000)
args = parser.parse_args()

adata = scflux.read_h5ad(args.input)[: args.cells, :].copy()
pcs = np.asarray(adata.obsm["X_pca"]).astype(np.float64)
start = time.time()
scflux.pp.neighbors(adata)
took = time.time() - start
k = 15
kth = np.empty(len(pcs))
squares = (pcs ** 2).sum(1)
for lo in range(0, len(pcs), 2000):
    block = squares[lo:lo + 2000, None] + squares[None, :] - 2 * pcs[lo:lo + 2000] @ pcs.T
    np.maximum(block, 0, out=block)
    block[np.arange(block.shape[0]), lo + np.arange(block.shape[0])] = np.inf
    kth[lo:lo + 2000] = np.sqrt(np.partition(block, k - 2, axis=1)[:, k - 2])
d = adata.obsp["distances"]
found = sum(int((d.data[d.indptr[i] + 1:d.indptr[i + 1]] <= kth[i] * (1 + 1e-6)).sum()) for i in range(len(pcs)))
print(f"{len(pcs)} cells: neighbors {took:.1f} s, recall {found / (len(pcs) * (k - 1)):.4f}")
