package io.scflux.ops;

import io.scflux.core.RowBlock;
import io.scflux.core.Stage;

/**
 * Each row's coordinates on the principal components, {@code (x - mean) V}, as a stage: a block of cells becomes a
 * dense block of {@code k} columns. Computed in float64 as {@code x V - mean V} (scikit-learn centres after
 * projecting, which keeps sparse rows sparse) and rounded to float32, as scanpy stores {@code X_pca}. As a stage, the
 * embedding is computed while it is written, never held whole.
 */
final class ProjectionStage implements Stage {

    private final Components components;
    private final double[] meanV;

    ProjectionStage(Components components) {
        this.components = components;
        int k = components.k();
        meanV = new double[k];
        double[] mean = components.mean();
        double[] v = components.loadings();
        for (int a = 0; a < mean.length; a++) {
            for (int j = 0; j < k; j++) {
                meanV[j] += mean[a] * v[a * k + j];
            }
        }
    }

    @Override
    public RowBlock apply(RowBlock block) {
        int k = components.k();
        double[] v = components.loadings();
        double[] acc = new double[k];
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        int rows = block.nRows();
        int[] outPtr = new int[rows + 1];
        int[] outIdx = new int[rows * k];
        float[] out = new float[rows * k];
        for (int r = 0; r < rows; r++) {
            java.util.Arrays.fill(acc, 0);
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                double x = values[i];
                int base = indices[i] * k;
                for (int j = 0; j < k; j++) {
                    acc[j] += x * v[base + j];
                }
            }
            int at = r * k;
            for (int j = 0; j < k; j++) {
                outIdx[at + j] = j;
                out[at + j] = (float) (acc[j] - meanV[j]);
            }
            outPtr[r + 1] = at + k;
        }
        return RowBlock.of(block.blockIndex(), block.rowStart(), k, outPtr, outIdx, out);
    }
}
