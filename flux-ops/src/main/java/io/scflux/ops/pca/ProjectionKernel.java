/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.RowBlock;

/**
 * PCA's projection of rows on its components, the kernel of {@code X_pca}: a backend that accelerates it implements
 * it ({@link io.scflux.core.Backend#kernel}); {@link HostProjection} is the host's form, the reference.
 */
public interface ProjectionKernel {

    /**
     * Each row's coordinates on {@code k} components: {@code x V - meanV} in float64 rounded to float32, with
     * {@code loadings} row-major {@code [column * k + j]}.
     *
     * @param block a heap block of the components' columns
     * @param loadings the components' loadings, row-major
     * @param k the number of components
     * @param meanV the projected mean subtracted from each row
     * @return a dense block of {@code k} columns
     */
    RowBlock project(RowBlock block, double[] loadings, int k, double[] meanV);
}
