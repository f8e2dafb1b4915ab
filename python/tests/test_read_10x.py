"""read_10x_h5 against scanpy (read_10x_var: ``sc.read_10x_h5(path); adata.var_names_make_unique()`` on synth-3k's
counts in Cell Ranger 3's layout with genes 1 and 2 renamed to gene 0's name), on Cell Ranger files the tests write
with h5py: Cell Ranger 3 (``/matrix``), Cell Ranger 2 (``/<genome>``), and one with Antibody Capture features."""

import anndata
import numpy as np
import pytest
import scipy.sparse as sp

import scflux
from cellranger import ANTIBODIES, GENOME, antibody_counts, write_cellranger2, write_cellranger3
from conftest import COUNTS, assert_close, counts_matrix, expected_csv, leftovers


def check_against_scanpy(adata: anndata.AnnData, columns=("gene_ids", "feature_types", "genome")) -> None:
    ref = expected_csv("read_10x_var")
    adata.var_names_make_unique()
    assert list(adata.var_names) == list(ref.index)
    for c in columns:
        assert list(adata.var[c].astype(str)) == list(ref[c]), c
    assert list(adata.obs_names) == list(anndata.read_h5ad(COUNTS, backed="r").obs_names)
    x = adata.X if not adata.isbacked else adata.to_memory().X
    assert x.dtype == np.float32
    assert (sp.csr_matrix(x) != counts_matrix().astype(np.float32)).nnz == 0


def test_cellranger3_as_scanpy(engine, tmp_path):
    adata = scflux.read_10x_h5(write_cellranger3(tmp_path / "cr3.h5"))
    assert isinstance(adata, scflux.AnnData), "the notebook's container, X left in the file"
    check_against_scanpy(adata.to_memory())
    assert leftovers(tmp_path) == []


def test_cellranger3_into_out_is_returned_backed(jar, tmp_path):
    out = tmp_path / "cr3.h5ad"
    adata = scflux.read_10x_h5(write_cellranger3(tmp_path / "cr3.h5"), out=out)
    assert adata.isbacked and adata.filename == out
    check_against_scanpy(adata.to_memory())


@pytest.mark.parametrize("genome", [None, GENOME])
def test_cellranger2_as_scanpy(engine, tmp_path, genome):
    adata = scflux.read_10x_h5(write_cellranger2(tmp_path / "cr2.h5"), genome=genome)
    check_against_scanpy(adata.to_memory(), columns=("gene_ids",))


def test_antibody_capture_is_dropped_unless_gex_only_is_false(engine, tmp_path):
    path = write_cellranger3(tmp_path / "cr3-adt.h5", antibodies=True)
    check_against_scanpy(scflux.read_10x_h5(path).to_memory())
    everything = scflux.read_10x_h5(path, gex_only=False)
    assert everything.n_vars == 2002
    assert list(everything.var_names[-2:]) == ANTIBODIES
    assert list(everything.var["feature_types"][-2:]) == ["Antibody Capture"] * 2
    assert_close(everything.X.to_memory()[:, -2:].toarray(), antibody_counts(3000).toarray(), 0, "antibodies")
    genome_only = scflux.read_10x_h5(path, gex_only=False, genome=GENOME)
    assert genome_only.n_vars == 2000


def test_a_cellranger_input_cannot_be_rewritten_in_place(tmp_path):
    path = write_cellranger3(tmp_path / "cr3.h5")
    with pytest.raises(ValueError, match="Cell Ranger .*out="):
        scflux.pp.normalize_total(path)


def test_steps_read_a_cellranger_input(jar, tmp_path):
    path = write_cellranger3(tmp_path / "cr3.h5")
    obs, _ = scflux.pp.calculate_qc_metrics(path, percent_top=(50,))
    assert_close(obs["total_counts"], np.asarray(counts_matrix().sum(axis=1)).ravel(), 0, "total_counts")
    scflux.pp.normalize_total(path, target_sum=1e4, out=tmp_path / "n.h5ad")
    x = anndata.read_h5ad(tmp_path / "n.h5ad").X
    assert_close(np.asarray(x.sum(axis=1)).ravel(), np.full(3000, 1e4), 1e-5, "normalized totals")
