/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.RowBlock;
import io.scflux.core.StagedSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Selection;

/**
 * The inputs of the PCA, scale and rank_genes_groups references, built here without the normalize/log1p/HVG
 * operators: {@code adata_log1p[:, hvg_seurat.highly_variable]}, where adata_log1p is the counts after
 * {@code normalize_total(target_sum=1e4)} and {@code log1p}, in scanpy's float32 arithmetic: each row's total in
 * float64 stored as float32, the factor {@code total / 1e4} in float32, each value divided by it in float32, then
 * float32 log1p.
 */
public final class ReferenceInput {

    private ReferenceInput() {}

    /** The counts normalized and log-transformed, restricted to the 500 highly variable genes (a lazy view). */
    public static AnnData log1pHvg() {
        AnnData counts = Reference.counts();
        counts.setX(StagedSource.of(counts.x(), ReferenceInput::normalizeLog1p));
        Reference.Table hvg = Reference.csv("hvg_seurat");
        assertArrayEquals(counts.var().index(), hvg.rowNames(), "hvg_seurat lists the genes in var order");
        return counts.subset(Selection.all(), Selection.mask(hvg.bools("highly_variable")));
    }

    /**
     * scanpy's {@code adata_log1p}, value for value, in memory: {@link #normalizeLog1p} of the counts, but where
     * numpy's float32 log1p rounds the other way (about 4% of the values, one ulp each) the reference's value
     * ({@code rgg_input_ulps}, cut from normalized_log1p.h5ad): for a step whose result hangs on every bit, as
     * rank_genes_groups' ranks and its scores near 0 do.
     */
    public static AnnData log1pExact() {
        AnnData counts = Reference.counts();
        CsrMatrix mine = CsrMatrix.collect(
                        StagedSource.of(counts.x(), ReferenceInput::normalizeLog1p)
                                .blocks(),
                        counts.nVars())
                .block();
        long[] indptr = new long[counts.nObs() + 1];
        for (int r = 0; r <= counts.nObs(); r++) {
            indptr[r] = mine.indptr(r);
        }
        int nnz = Math.toIntExact(mine.nnz());
        int[] indices = new int[nnz];
        float[] values = new float[nnz];
        for (int k = 0; k < nnz; k++) {
            indices[k] = mine.index(k);
            values[k] = mine.value(k);
        }
        Reference.Table ulps = Reference.csv("rgg_input_ulps");
        for (int i = 0; i < ulps.size(); i++) {
            int k = Integer.parseInt(ulps.string(i, "entry"));
            float theirs = (float) Double.parseDouble(ulps.string(i, "value"));
            assertEquals(
                    1,
                    Math.abs(Float.floatToIntBits(theirs) - Float.floatToIntBits(values[k])),
                    "entry " + k + ": numpy's log1p one ulp away");
            values[k] = theirs;
        }
        return new AnnData(CsrMatrix.of(counts.nVars(), indptr, indices, values), counts.obs(), counts.var());
    }

    /** The normalize_total + log1p stage. */
    public static RowBlock normalizeLog1p(RowBlock block) {
        int[] indptr = block.indptr();
        float[] values = block.values();
        float[] out = new float[values.length];
        for (int r = 0; r < block.nRows(); r++) {
            double total = 0;
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                total += values[i];
            }
            float factor = (float) total / 1e4f;
            if (factor == 0) {
                factor = 1;
            }
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                out[i] = (float) Math.log1p(values[i] / factor);
            }
        }
        return block.withValues(out);
    }
}
