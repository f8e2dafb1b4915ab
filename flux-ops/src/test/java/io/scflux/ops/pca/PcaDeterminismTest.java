/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Threads;
import io.scflux.ops.reference.Embeddings;
import io.scflux.ops.reference.ReferenceInput;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Both solvers give the same bits with 1, 2 and 8 threads (partials merged in block order, rows projected into their
 * own slices), and results within rounding of each other under different block plans.
 */
@Tag("slow")
class PcaDeterminismTest {

    private static final int K = 20;

    private static AnnData pca(PcaOptions.Solver solver, Streaming streaming) {
        return Pca.pca(
                        ReferenceInput.log1pHvg(),
                        PcaOptions.defaults().withNComps(K).withSolver(solver),
                        streaming)
                .block();
    }

    @SuppressWarnings("unchecked")
    private static DenseArray uns(AnnData a, String key) {
        return (DenseArray) ((Map<String, Object>) a.uns().get("pca")).get(key);
    }

    @ParameterizedTest
    @EnumSource(
            value = PcaOptions.Solver.class,
            names = {"COVARIANCE_EIGH", "RANDOMIZED"})
    void oneTwoAndEightThreadsGiveTheSameBits(PcaOptions.Solver solver) {
        Streaming small = Streaming.DEFAULT.withTarget(BlockSize.SMALL.target());
        AnnData one = pca(solver, small.withThreads(Threads.ONE.count()));
        for (Threads t : new Threads[] {Threads.TWO, Threads.EIGHT}) {
            AnnData other = pca(solver, small.withThreads(t.count()));
            assertEquals(Embeddings.xPca(one), Embeddings.xPca(other), t + ": X_pca");
            assertEquals(one.varm().get("PCs"), other.varm().get("PCs"), t + ": PCs");
            assertEquals(uns(one, "variance"), uns(other, "variance"), t + ": variance");
            assertEquals(uns(one, "variance_ratio"), uns(other, "variance_ratio"), t + ": variance_ratio");
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = BlockSize.class,
            names = {"ONE_ROW", "TINY", "SMALL"})
    void blockPlansAgreeWithinRounding(BlockSize size) {
        AnnData reference = pca(PcaOptions.Solver.COVARIANCE_EIGH, Streaming.DEFAULT);
        AnnData other = pca(
                PcaOptions.Solver.COVARIANCE_EIGH,
                Streaming.DEFAULT.withTarget(size.target()).withThreads(Threads.TWO.count()));
        assertClose(uns(reference, "variance"), uns(other, "variance"), 1e-6, size + ": variance");
        assertClose(
                (DenseArray) reference.varm().get("PCs"),
                (DenseArray) other.varm().get("PCs"),
                1e-5,
                size + ": PCs");
        assertClose(Embeddings.xPca(reference), Embeddings.xPca(other), 1e-5, size + ": X_pca");
    }

    /** Every element within {@code relative} of the largest magnitude in {@code expected}. */
    static void assertClose(DenseArray expected, DenseArray actual, double relative, String what) {
        assertEquals(expected.dtype(), actual.dtype(), what);
        double scale = 0;
        for (int i = 0; i < expected.size(); i++) {
            scale = Math.max(scale, Math.abs(expected.getDouble(i)));
        }
        double worst = 0;
        for (int i = 0; i < expected.size(); i++) {
            worst = Math.max(worst, Math.abs(expected.getDouble(i) - actual.getDouble(i)));
        }
        assertTrue(worst <= relative * scale, what + ": differs by " + worst + " at scale " + scale);
    }
}
