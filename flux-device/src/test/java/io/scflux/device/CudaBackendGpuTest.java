/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.PlacedSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Streaming;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.concat.ConcatSource;
import io.scflux.ops.moments.ColumnSumsKernel;
import io.scflux.ops.moments.HostColumnSums;
import io.scflux.ops.normalized.NormalizeLog1p;
import io.scflux.ops.pca.GramKernel;
import io.scflux.ops.pca.HostGram;
import io.scflux.ops.pca.HostProjection;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CUDA kernels against the host's on the synth-3k fixture (int64 indptr), block by block: within 1e-5 relative,
 * and the same bits on a second run; a concatenation of inputs resident on the device, re-indexed there, the host's
 * blocks bit for bit. Needs a CUDA device: run by samples/gpu-check.sh, excluded from ordinary builds.
 */
@Tag("gpu")
class CudaBackendGpuTest {

    private static final double TOLERANCE = 1e-5;
    private static CudaBackend cuda;
    private static List<RowBlock> blocks;
    private static BlockSource x;
    private static PlanTarget target;
    private static int nCols;

    @BeforeAll
    static void open() {
        assertNull(CudaProbe.unavailableReason(), "gpu tests need a usable CUDA device");
        cuda = CudaBackend.open(256L << 20);
        x = H5ad.read(TestFixtures.path("synth-3k.int64.h5ad")).x();
        nCols = x.nCols();
        target = cuda.target(PlanTarget.ofChunkNnz(50_000));
        blocks = x.blocks(x.plan(target)).collectList().block();
        assertTrue(blocks.size() > 2, "several blocks");
    }

    @AfterAll
    static void close() {
        if (cuda == null) {
            return;
        }
        cuda.close();
        assertEquals(0, cuda.memory().reserved());
        System.out.println("gpu: synth-3k, " + blocks.size() + " blocks, peak device bytes "
                + cuda.memory().peak());
    }

    private static void assertClose(double[] expected, double[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            double scale = Math.max(Math.abs(expected[i]), 1e-30);
            assertTrue(
                    Math.abs(expected[i] - actual[i]) <= TOLERANCE * scale,
                    what + "[" + i + "]: host " + expected[i] + ", cuda " + actual[i]);
        }
    }

    private static double[] widen(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }

    @Test
    void normalizeLog1pMatchesTheHost() {
        double[] factors =
                new double[Math.toIntExact(blocks.get(blocks.size() - 1).rowEnd())];
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < factors.length; i++) {
            factors[i] = i % 17 == 0 ? 0 : 0.1 + rnd.nextDouble() * 10;
        }
        for (Double base : new Double[] {null, 2.0}) {
            for (RowBlock b : blocks) {
                float[] host = NormalizeLog1p.of(factors, true, base).apply(b).values();
                float[] device =
                        cuda.normalizeLog1p(factors, true, base).apply(b).values();
                assertClose(widen(host), widen(device), "normalize_log1p block " + b.blockIndex());
            }
        }
    }

    @Test
    void columnSumsMatchTheHostAndRepeatBitForBit() {
        for (RowBlock b : blocks) {
            double[][] host = sums(HostColumnSums.INSTANCE, b);
            double[][] first = sums(cuda, b);
            double[][] second = sums(cuda, b);
            assertClose(host[0], first[0], "sum block " + b.blockIndex());
            assertClose(host[1], first[1], "squares block " + b.blockIndex());
            assertArrayEquals(first[0], second[0]);
            assertArrayEquals(first[1], second[1]);
        }
    }

    private static double[][] sums(ColumnSumsKernel on, RowBlock b) {
        double[] sum = new double[nCols];
        double[] squares = new double[nCols];
        on.columnSums(b, true, sum, squares);
        return new double[][] {sum, squares};
    }

    @Test
    void gramOfSelectedColumnsMatchesTheHostAndRepeatsBitForBit() {
        int p = 300;
        for (RowBlock b : blocks) {
            RowBlock selected = firstColumns(b, p);
            double[][] host = gram(HostGram.INSTANCE, selected, p);
            double[][] first = gram(cuda, selected, p);
            double[][] second = gram(cuda, selected, p);
            assertClose(host[0], first[0], "gram block " + b.blockIndex());
            assertClose(host[1], first[1], "column sums block " + b.blockIndex());
            assertArrayEquals(first[0], second[0]);
        }
    }

    private static double[][] gram(GramKernel on, RowBlock b, int p) {
        double[] upper = new double[p * (p + 1) / 2];
        double[] sums = new double[p];
        on.gram(List.of(b), upper, sums);
        return new double[][] {upper, sums};
    }

    /** The block's entries in columns below {@code p}, as a block of {@code p} columns. */
    private static RowBlock firstColumns(RowBlock b, int p) {
        int[] ptr = new int[b.nRows() + 1];
        int n = 0;
        for (int k = 0; k < b.nnz(); k++) {
            n += b.indices()[k] < p ? 1 : 0;
        }
        int[] idx = new int[n];
        float[] val = new float[n];
        int at = 0;
        for (int r = 0; r < b.nRows(); r++) {
            for (int k = b.indptr()[r]; k < b.indptr()[r + 1]; k++) {
                if (b.indices()[k] < p) {
                    idx[at] = b.indices()[k];
                    val[at++] = b.values()[k];
                }
            }
            ptr[r + 1] = at;
        }
        return RowBlock.of(b.blockIndex(), b.rowStart(), p, ptr, idx, val);
    }

    @Test
    void concatenationOfResidentInputsIsReindexedOnTheDeviceAsOnTheHost() {
        int[] inner = new int[nCols];
        int[] reversed = new int[nCols];
        int[] shifted = new int[nCols];
        for (int c = 0; c < nCols; c++) {
            inner[c] = c % 3 == 0 ? (nCols - 1) / 3 - c / 3 : -1;
            reversed[c] = nCols + 9 - c;
            shifted[c] = c + (c < nCols / 2 ? 0 : 10);
        }
        concat(Arrays.asList(inner, inner), (nCols + 2) / 3, 0);
        concat(Arrays.asList(reversed, shifted), nCols + 10, 0);
        concat(Arrays.asList(reversed, shifted), nCols + 10, -1.5f);
    }

    /** synth-3k twice, re-indexed by {@code maps}: on the host, and resident on the device then downloaded. */
    private static void concat(List<int[]> maps, int nOut, float fill) {
        Streaming streaming = Streaming.DEFAULT.withTarget(target).withThreads(2);
        List<RowBlock> host = streaming
                .blocks(ConcatSource.of(List.of(x, x), maps, nOut, fill))
                .collectList()
                .block();
        BlockSource onDevice = PlacedSource.on(cuda, x);
        ConcatSource s = ConcatSource.of(List.of(onDevice, onDevice), maps, nOut, fill);
        assertEquals(cuda, s.backend());
        long before = cuda.memory().reserved();
        List<RowBlock> device = streaming.blocks(s).collectList().block();
        assertEquals(host, device, "the host's blocks, bit for bit, fill " + fill);
        assertTrue(
                cuda.memory().reserved() - before <= 4L * (nCols + nOut),
                "only the column map stays on the device: " + cuda.memory());
    }

    @Test
    void projectionMatchesTheHost() {
        int k = 20;
        SplittableRandom rnd = new SplittableRandom(2);
        double[] loadings = new double[nCols * k];
        for (int i = 0; i < loadings.length; i++) {
            loadings[i] = rnd.nextGaussian() / Math.sqrt(nCols);
        }
        double[] meanV = new double[k];
        for (int j = 0; j < k; j++) {
            meanV[j] = rnd.nextGaussian();
        }
        for (RowBlock b : blocks) {
            float[] host =
                    HostProjection.INSTANCE.project(b, loadings, k, meanV).values();
            float[] device = cuda.project(b, loadings, k, meanV).values();
            assertClose(widen(host), widen(device), "projection block " + b.blockIndex());
        }
    }
}
