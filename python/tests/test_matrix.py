"""Every input format x every step, against the references: the same counts as a CSR .h5ad with int64 indices
(gzip), a CSC .h5ad (gzip) and a Cell Ranger 3 .h5, each through the steps that return their result (so that the
Cell Ranger file, which cannot be rewritten, takes part): qc, normalize_total, seurat_v3 genes, pseudobulk."""

import anndata
import pytest

import scflux
from cellranger import write_cellranger3
from conftest import FIXTURES
from references import check_hvg, check_normalized, check_pseudobulk, check_qc


def qc(path):
    obs, var = scflux.pp.calculate_qc_metrics(path, qc_vars={"mt": "MT-"}, percent_top=(50, 100, 200))
    check_qc(obs, var)


def normalize_total(path):
    result = scflux.pp.normalize_total(path, inplace=False)
    check_normalized(result["X"], "normalized_median", anndata.read_h5ad(FIXTURES / "synth-3k.int64.h5ad",
                                                                         backed="r").obs_names)


def seurat_v3(path):
    check_hvg(scflux.pp.highly_variable_genes(path, flavor="seurat_v3", n_top_genes=500, inplace=False),
              "hvg_seurat_v3")


def pseudobulk(path):
    check_pseudobulk(scflux.pp.pseudobulk(path, "sample", "cell_type"), "sum")


STEPS = {"qc": qc, "normalize_total": normalize_total, "seurat_v3": seurat_v3, "pseudobulk": pseudobulk}
INPUTS = ["synth-3k.int64.h5ad", "synth-3k.csc-gzip.h5ad", "cellranger3.h5"]
CASES = [(name, step) for name in INPUTS for step in STEPS
         if not (name.endswith(".h5") and step == "pseudobulk")]  # Cell Ranger files have no obs columns


@pytest.fixture(scope="module")
def cellranger3(tmp_path_factory):
    return write_cellranger3(tmp_path_factory.mktemp("matrix") / "cellranger3.h5", rename=False)


@pytest.mark.parametrize("name, step", CASES)
def test_input_x_step(jar, cellranger3, name, step):
    STEPS[step](cellranger3 if name.endswith(".h5") else FIXTURES / name)
