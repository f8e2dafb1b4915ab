/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.PackedStrings;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The most bytes a job's output may take, estimated before the job runs from its input and its steps, so that a job
 * whose output cannot fit under {@code --max-results-mb} fails at once rather than after its work. It starts from the
 * one estimate of an output's size every write checks against the free space ({@link H5ad#outputBytes}): the input
 * as the writer would write it unchanged, split into its matrices and the rest (the estimate of the input without
 * them); then counts what each step adds:
 * qc, hvg and the filters at most 8 float64 columns on obs and 8 on var (the filters are counted at the input's size:
 * they only take away), normalize and log1p the same; pca its scores and loadings, (n_obs + n_vars) x n_comps x 8;
 * pseudobulk replaces every matrix by its dense X and psbulk_props of samples x groups rows, each rows x n_vars x 8;
 * rank_genes_groups per group and ranked gene its name and six float64 fields.
 * It is an upper bound, unless a step turns values narrower than float32 (int8 or int16 counts) into float32.
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

    /** The input {@code data} as the writer would write it unchanged (uncompressed, as the service writes). */
    static OutputEstimate of(AnnData data) {
        long all = H5ad.outputBytes(data, WriteOptions.DEFAULT);
        long annotations = H5ad.outputBytes(withoutMatrices(data), WriteOptions.DEFAULT);
        return new OutputEstimate(Math.max(0, all - annotations), annotations, data.nObs(), data.nVars());
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
    OutputEstimate withPca(@Nullable Integer nComps) {
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
    OutputEstimate withRankGenesGroups(AnnData data, String groupby, @Nullable Integer nGenes) {
        long genes = nGenes == null ? nVars : Math.min(nGenes, nVars);
        PackedStrings names = data.var().names();
        long name = 0;
        for (int i = 0; i < names.size(); i++) {
            name = Math.max(name, names.end(i) - names.start(i));
        }
        return new OutputEstimate(
                matrices, annotations + distinct(data, groupby) * genes * (name + 6 * 8), nObs, nVars);
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

    /** {@code data} without X, layers, raw and the matrices among obsm, varm, obsp and varp: what else is written. */
    private static AnnData withoutMatrices(AnnData data) {
        AnnData out = new AnnData(null, data.obs(), data.var());
        notMatrices(data.obsm(), out::putObsm);
        notMatrices(data.varm(), out::putVarm);
        notMatrices(data.obsp(), out::putObsp);
        notMatrices(data.varp(), out::putVarp);
        out.uns().putAll(data.uns());
        return out;
    }

    /** Puts the entries of {@code from} that are not matrices with {@code put}. */
    private static void notMatrices(Map<String, Object> from, BiConsumer<String, Object> put) {
        from.forEach((k, v) -> {
            if (!(v instanceof BlockSource)) {
                put.accept(k, v);
            }
        });
    }
}
