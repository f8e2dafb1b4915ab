package io.scflux.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.scflux.core.RowBlock;
import io.scflux.core.StagedSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.Selection;

/**
 * The input of the PCA and scale references, built here without the normalize/log1p/HVG operators:
 * {@code adata_log1p[:, hvg_seurat.highly_variable]}, where adata_log1p is the counts after
 * {@code normalize_total(target_sum=1e4)} and {@code log1p}, in scanpy's float32 arithmetic: each row's total in
 * float64 stored as float32, the factor {@code total / 1e4} in float32, each value divided by it in float32, then
 * float32 log1p.
 */
final class ReferenceInput {

    private ReferenceInput() {
    }

    /** The counts normalized and log-transformed, restricted to the 500 highly variable genes (a lazy view). */
    static AnnData log1pHvg() {
        AnnData counts = Reference.counts();
        counts.setX(StagedSource.of(counts.x(), ReferenceInput::normalizeLog1p));
        Reference.Table hvg = Reference.csv("hvg_seurat");
        assertArrayEquals(counts.var().index(), hvg.rowNames(), "hvg_seurat lists the genes in var order");
        return counts.subset(Selection.all(), Selection.mask(hvg.bools("highly_variable")));
    }

    /** The normalize_total + log1p stage. */
    static RowBlock normalizeLog1p(RowBlock block) {
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
