"""Cell Ranger HDF5 files written with h5py from synth-3k's counts, as Cell Ranger 2 and 3 lay them out (fixed-length
byte strings; the matrix as features x barcodes CSC, which is the cells x genes CSR)."""

import anndata
import h5py
import numpy as np
import scipy.sparse as sp

from conftest import COUNTS, counts_matrix

GENOME = "GRCh38"
ANTIBODIES = ["CD3_TotalSeqB", "CD4_TotalSeqB"]


def _fixed(strings) -> np.ndarray:
    return np.array([s.encode() for s in strings], dtype="S")  # fixed-length byte strings, as Cell Ranger's


def counts_as_cellranger(rename: bool = True):
    """The counts (cells x features CSR, which is Cell Ranger's features x barcodes CSC), barcodes, gene ids and
    gene names, with genes 1 and 2 renamed to gene 0's name as in the reference's file (``rename``)."""
    a = anndata.read_h5ad(COUNTS)
    names = list(a.var_names)
    if rename:
        names[1] = names[2] = names[0]
    return counts_matrix(), list(a.obs_names), list(a.var["gene_ids"]), names


def antibody_counts(n_cells: int) -> sp.csr_matrix:
    cells = np.arange(n_cells)
    values = np.stack([cells % 7, (cells * 3) % 5]).T.astype(np.float64)
    return sp.csr_matrix(values)


def write_cellranger3(path, *, antibodies=False, rename=True):
    """synth-3k's counts in Cell Ranger 3's layout (``/matrix``), with two Antibody Capture features appended
    when ``antibodies``."""
    x, barcodes, ids, names = counts_as_cellranger(rename)
    types, genomes = ["Gene Expression"] * len(ids), [GENOME] * len(ids)
    if antibodies:
        x = sp.hstack([x, antibody_counts(x.shape[0])], format="csr")
        ids, names = ids + ANTIBODIES, names + ANTIBODIES
        types, genomes = types + ["Antibody Capture"] * 2, genomes + [""] * 2
    with h5py.File(path, "w") as f:
        f.attrs["filetype"] = "matrix"
        f.attrs["version"] = 2
        m = f.create_group("matrix")
        m["barcodes"] = _fixed(barcodes)
        m["data"] = x.data.astype(np.int32)
        m["indices"] = x.indices.astype(np.int64)
        m["indptr"] = x.indptr.astype(np.int64)
        m["shape"] = np.array([x.shape[1], x.shape[0]], dtype=np.int32)
        features = m.create_group("features")
        features["id"] = _fixed(ids)
        features["name"] = _fixed(names)
        features["feature_type"] = _fixed(types)
        features["genome"] = _fixed(genomes)
        features["_all_tag_keys"] = _fixed(["genome"])
    return path


def write_cellranger2(path):
    """synth-3k's counts in Cell Ranger 2's layout (one group per genome)."""
    x, barcodes, ids, names = counts_as_cellranger()
    with h5py.File(path, "w") as f:
        g = f.create_group(GENOME)
        g["data"] = x.data.astype(np.int32)
        g["indices"] = x.indices.astype(np.int64)
        g["indptr"] = x.indptr.astype(np.int64)
        g["shape"] = np.array([x.shape[1], x.shape[0]], dtype=np.int32)
        g["barcodes"] = _fixed(barcodes)
        g["genes"] = _fixed(ids)
        g["gene_names"] = _fixed(names)
    return path
