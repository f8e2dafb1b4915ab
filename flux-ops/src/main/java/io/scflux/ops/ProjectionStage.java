package io.scflux.ops;

import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.core.backend.Backend;

/**
 * Each row's coordinates on the principal components, {@code (x - mean) V}, as a stage: a block of cells becomes a
 * dense block of {@code k} columns. Computed in float64 as {@code x V - mean V} (scikit-learn centres after
 * projecting, which keeps sparse rows sparse) and rounded to float32, as scanpy stores {@code X_pca}. As a stage, the
 * embedding is computed while it is written, never held whole; each block by the backend's {@link Backend#project}.
 */
final class ProjectionStage implements Stage {

    private final Components components;
    private final double[] meanV;
    private final Backend backend;

    ProjectionStage(Components components, Backend backend) {
        this.components = components;
        this.backend = backend;
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
        return backend.project(block, components.loadings(), components.k(), meanV);
    }
}
