package io.scflux.samples.service;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.PackedStrings;
import io.scflux.core.anndata.Column;
import io.scflux.io.FileMatrix;
import io.scflux.io.MatrixInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The most bytes a job's output may take, estimated before the job runs from its input and its steps, so that a job
 * whose output cannot fit under {@code --max-results-mb} fails at once rather than after its work. The output is
 * written uncompressed, whatever the input's compression, so the input file's size is no bound: a Cell Ranger
 * {@code .h5} or a gzip'd {@code .h5ad} grows. The estimate counts
 * <ul>
 * <li>each matrix of the input (X, layers, raw's X, and the sparse ones among obsm, varm, obsp, varp) as the writer
 * writes it: for a sparse one, its stored entries at 8 bytes a value (float64, the widest a step makes) and 4 an index
 * (8 past 2^31), plus its row pointers; for a dense one, rows x columns x 8;</li>
 * <li>everything else (obs, var, the dense obsm, uns...) as the input file holds it: the file's size less what its
 * uncompressed matrices take there;</li>
 * <li>what each step adds: qc, hvg and the filters at most 8 float64 columns on obs and 8 on var (the filters are
 * counted at the input's size: they only take away), normalize and log1p the same; pca its scores and loadings,
 * (n_obs + n_vars) x n_comps x 8; pseudobulk replaces every matrix by its dense X and psbulk_props of samples x
 * groups rows, each rows x n_vars x 8; rank_genes_groups per group and ranked gene its name and six float64 fields.</li>
 * </ul>
 * It is an upper bound, unless the input holds its dense obsm or its uns compressed (they are counted as stored).
 *
 * @param matrices    bytes of the matrices as written
 * @param annotations bytes of everything else
 * @param nObs        rows of the output
 * @param nVars       columns of the output
 */
record OutputEstimate(long matrices, long annotations, long nObs, long nVars) {

    /** float64 columns a step adds at most, on obs and on var each. */
    static final int COLUMNS_PER_STEP = 8;

    /** pca's components unless told: scanpy's 50 (fewer for a small matrix). */
    static final int DEFAULT_N_COMPS = 50;

    private static final long INT32_LIMIT = Integer.MAX_VALUE;

    /** The input {@code data} read from a file of {@code fileBytes}, as the writer would write it unchanged. */
    static OutputEstimate of(AnnData data, long fileBytes) {
        long written = 0;
        long stored = 0;
        for (BlockSource m : matrices(data)) {
            written += written(m);
            stored += m instanceof FileMatrix f && "none".equals(f.info().compression()) ? stored(f.info()) : 0;
        }
        return new OutputEstimate(written, Math.max(0, fileBytes - stored), data.nObs(), data.nVars());
    }

    /** The estimate in bytes. */
    long bytes() {
        return matrices + annotations;
    }

    /** After a step that adds at most {@link #COLUMNS_PER_STEP} float64 columns on obs and on var each. */
    OutputEstimate withColumns() {
        return new OutputEstimate(matrices, annotations + (nObs + nVars) * COLUMNS_PER_STEP * 8, nObs, nVars);
    }

    /**
     * After pca of {@code nComps} components (null: scanpy's default, at most {@link #DEFAULT_N_COMPS}): X_pca
     * (n_obs x n_comps), PCs (n_vars x n_comps) and the variances, float64.
     */
    OutputEstimate withPca(Integer nComps) {
        long n = nComps == null ? DEFAULT_N_COMPS : nComps;
        return new OutputEstimate(matrices, annotations + (nObs + nVars + 2) * n * 8, nObs, nVars);
    }

    /**
     * After pseudobulk of {@code data} by its obs columns {@code sampleCol} and {@code groupsCol}: a row for each
     * sample and group (decoupler keeps the empty pairs), X and psbulk_props dense float64.
     */
    OutputEstimate asPseudobulk(AnnData data, String sampleCol, String groupsCol) {
        long rows = distinct(data, sampleCol) * distinct(data, groupsCol);
        return new OutputEstimate(2 * rows * nVars * 8, annotations + rows * COLUMNS_PER_STEP * 8, rows, nVars);
    }

    /**
     * After rank_genes_groups of {@code data} by its obs column {@code groupby} ({@code nGenes} per group, null: every
     * gene): per group and ranked gene, the gene's name (as long as the longest var name) and four float64 fields,
     * and pts and pts_rest when asked (counted always: an upper bound).
     */
    OutputEstimate withRankGenesGroups(AnnData data, String groupby, Integer nGenes) {
        long genes = nGenes == null ? nVars : Math.min(nGenes, nVars);
        PackedStrings names = data.var().names();
        long name = 0;
        for (int i = 0; i < names.size(); i++) {
            name = Math.max(name, names.end(i) - names.start(i));
        }
        return new OutputEstimate(matrices, annotations + distinct(data, groupby) * genes * (name + 6 * 8), nObs,
                nVars);
    }

    private static long distinct(AnnData data, String column) {
        if (!data.obs().has(column)) {
            return 0; // the step fails, saying so
        }
        Column c = data.obs().column(column);
        Set<Object> values = new HashSet<>();
        for (int i = 0; i < c.size(); i++) {
            values.add(c.get(i));
        }
        values.remove(null);
        return values.size();
    }

    private static List<BlockSource> matrices(AnnData data) {
        List<BlockSource> found = new ArrayList<>();
        Stream.of(data.x(), data.raw() == null ? null : data.raw().x()).filter(Objects::nonNull).forEach(found::add);
        found.addAll(data.layers().values());
        for (Map<String, Object> group : List.of(data.obsm(), data.varm(), data.obsp(), data.varp())) {
            group.values().stream().filter(v -> v instanceof BlockSource).map(v -> (BlockSource) v)
                    .forEach(found::add);
        }
        return found;
    }

    /** {@code m} as the writer writes it: float64 values at most, int32 indices unless past 2^31. */
    private static long written(BlockSource m) {
        long rows = m.nRows();
        long cols = m.nCols();
        if (!(m instanceof FileMatrix f) || f.info().indicesDtype() == null) {
            return rows * cols * 8;
        }
        long nnz = f.info().nnz();
        long index = Math.max(Math.max(rows, cols), nnz) > INT32_LIMIT ? 8 : 4;
        return nnz * (8 + index) + (rows + 1) * index;
    }

    /** What the matrix {@code info} takes in its file, uncompressed. */
    private static long stored(MatrixInfo info) {
        if (info.indicesDtype() == null) {
            return info.nnz() * info.dtype().size();
        }
        long pointers = info.encoding().equals("csc_matrix") ? info.nCols() + 1 : info.nRows() + 1;
        return info.nnz() * (info.dtype().size() + info.indicesDtype().size()) + pointers * info.indptrDtype().size();
    }
}
