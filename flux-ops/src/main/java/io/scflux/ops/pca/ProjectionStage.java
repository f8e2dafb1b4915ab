/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.Backend;
import io.scflux.core.ColumnMap;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import org.jspecify.annotations.Nullable;

/**
 * Each row's coordinates on the principal components, {@code (x - mean) V}, as a stage: a block of cells becomes a
 * dense block of {@code k} columns. Computed in float64 as {@code x V - mean V} (scikit-learn centres after
 * projecting, which keeps sparse rows sparse) and rounded to float32, as scanpy stores {@code X_pca}. As a stage, the
 * embedding is computed while it is written, never held whole; each block by the backend's {@link ProjectionKernel}.
 */
final class ProjectionStage implements Stage {

    private final Components components;
    private final double[] meanV;
    private final Backend backend;
    /** The features among the blocks' columns, or null when every column is one. */
    private final @Nullable ColumnMap pick;
    /** {@link #pick}'s component row of each column of the blocks (-1: not a feature), for the host's kernel. */
    private final int @Nullable [] rowOf;

    /**
     * The projection of blocks whose columns are the fit's features, or, with {@code mask} (null for none), of blocks
     * of all genes, the features being the genes it marks.
     */
    ProjectionStage(Components components, Backend backend, boolean @Nullable [] mask) {
        this.components = components;
        this.backend = backend;
        ColumnMap map = null;
        if (mask != null) {
            int[] to = new int[mask.length];
            int kept = 0;
            for (int g = 0; g < mask.length; g++) {
                to[g] = mask[g] ? kept++ : -1;
            }
            map = ColumnMap.of(to, kept, "mask_var"); // null when the mask keeps every gene
        }
        pick = map;
        rowOf = map == null ? null : map.columns();
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

    /** On the host, the features' entries projected where they lie; on a device, picked first. */
    @Override
    public RowBlock apply(RowBlock block) {
        ProjectionKernel kernel = HostProjection.on(backend);
        ColumnMap map = pick;
        int[] rows = rowOf;
        if (map == null || rows == null) { // both null or neither
            return kernel.project(block, components.loadings(), components.k(), meanV);
        }
        if (kernel == HostProjection.INSTANCE) {
            return HostProjection.project(block, rows, components.loadings(), components.k(), meanV);
        }
        return kernel.project(map.reindex(block, 0f), components.loadings(), components.k(), meanV);
    }
}
