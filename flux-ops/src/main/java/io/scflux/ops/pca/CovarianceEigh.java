/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.BlockSource;
import io.scflux.core.MemoryAccount;
import io.scflux.core.Streaming;
import io.scflux.ops.linalg.LanczosEigen;
import io.scflux.ops.values.ValueCheck;
import reactor.core.publisher.Mono;

/**
 * The exact solver, scikit-learn's {@code covariance_eigh}: one pass for the Gram matrix and the column sums, then
 * the covariance matrix's leading eigenpairs, converged to rounding by {@link LanczosEigen} (a full decomposition
 * costs the cube of the feature count; this costs a few hundred products with the matrix). The total variance is
 * the covariance's trace, the sum of all its eigenvalues.
 */
final class CovarianceEigh {

    private CovarianceEigh() {}

    /** The {@code k} leading components of the rows of {@code x}, its one pass made by {@code pass}. */
    static Mono<Components> solve(BlockSource x, int k, Streaming streaming, ValueCheck.Pass pass) {
        int p = x.nCols();
        long n = x.nRows();
        requireMemory(x, p, k, streaming);
        Gram gram = new Gram(p, streaming.backend());
        return pass.reduce(x, gram).map(sums -> {
            double[] mean = new double[p];
            double[] cov = gram.covariance(sums, n, mean);
            double total = 0;
            for (int a = 0; a < p; a++) {
                total += cov[a * p + a];
            }
            LanczosEigen.Pairs top = LanczosEigen.top(cov, p, k);
            return Components.ranked(mean, top.values(), top.vectors(), k, total);
        });
    }

    /**
     * Refuses, before the pass, a Gram matrix that cannot fit the memory budget: during the pass a packed triangle
     * of {@code p (p + 1) / 2} doubles per segment in flight and one merging, after it the merged triangle, the full
     * covariance ({@code p^2} doubles) and the Lanczos basis (a few hundred vectors of {@code p}). 20,000 genes need
     * 4.8 GB at least: an {@link OutOfMemoryError} halfway otherwise.
     */
    private static void requireMemory(BlockSource x, int p, int k, Streaming streaming) {
        long triangle = (long) p * (p + 1) / 2 * Double.BYTES;
        long full = (long) p * p * Double.BYTES;
        long segments = Math.max(1, (x.plan(streaming.target()).size() + Gram.SEGMENT - 1) / Gram.SEGMENT);
        long inFlight = Math.min(streaming.execution().threads(), segments) + 1;
        long basis = (long) p * 2 * Math.min(p, Math.max(2L * k + 40, 3L * k)) * Double.BYTES;
        long need = Math.max(inFlight * triangle, triangle + full + basis);
        MemoryAccount.host()
                .require(
                        need,
                        "pca's covariance_eigh solver over " + p + " genes (a Gram matrix of "
                                + p + " x " + p + " doubles"
                                + (inFlight > 2 ? " per segment of " + (inFlight - 1) + " in flight" : "")
                                + ", then the covariance and its eigenvectors; the randomized solver needs far less)");
    }
}
