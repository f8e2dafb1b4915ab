/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.ColumnMap;
import io.scflux.core.HostBackend;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import io.scflux.ops.moments.HostColumnSums;
import io.scflux.ops.normalized.NormalizeLog1p;
import io.scflux.ops.pca.HostGram;
import io.scflux.ops.pca.HostProjection;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-item functions of the CUDA kernels (kernels.cu), compiled for the host by the nvcc profile
 * (target/kernels_on_host), against {@link HostBackend} on counts and on signed fractional values: the index
 * arithmetic, the packed Gram layout, the fixed-point cells and the exponents the backend picks, without a GPU. What
 * only a GPU shows (launch, memory copies, atomics under contention) is left to the gpu-tagged tests.
 */
class KernelsOnHostTest {

    private static final Path EXE = Path.of("target/kernels_on_host");
    private static final int K = 7;

    @TempDir
    Path tmp;

    @Test
    void kernelItemsOnTheHostGiveTheHostBackendsResults() throws Exception {
        assumeTrue(Files.isExecutable(EXE), "no " + EXE + ": built by the nvcc profile where nvcc is installed");
        CsrMatrix m = Matrices.random(300, 60, 0.2, 11);
        RowBlock counts =
                m.blocks(m.plan(PlanTarget.ofChunkNnz(1 << 20))).single().block();
        assertEquals(300, counts.nRows());
        float[] signed = counts.values().clone();
        for (int i = 0; i < signed.length; i++) {
            signed[i] = (signed[i] - 10.5f) / 3;
        }
        check(counts);
        check(counts.withValues(signed));
    }

    private void check(RowBlock b) throws IOException, InterruptedException {
        SplittableRandom rnd = new SplittableRandom(5);
        int n = b.nCols();
        double[] factors = new double[b.nRows()];
        for (int i = 0; i < factors.length; i++) {
            factors[i] = i % 13 == 0 ? 0 : 0.5 + rnd.nextDouble() * 20;
        }
        double[] loadings = new double[n * K];
        for (int i = 0; i < loadings.length; i++) {
            loadings[i] = rnd.nextGaussian();
        }
        double[] meanV = new double[K];
        for (int j = 0; j < K; j++) {
            meanV[j] = rnd.nextGaussian();
        }
        double max = FixedPoint.maxAbs(b);
        int eSum = FixedPoint.sumExponent(b, max);
        int eSq = FixedPoint.squareExponent(b, max);
        int eGram = FixedPoint.gramExponent(b, max);

        ByteBuffer in = ByteBuffer.allocate(
                        9 * 4 + 8 + 4 * (b.nRows() + 1) + 8 * b.nnz() + 8 * (factors.length + loadings.length + K))
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int v : new int[] {b.nRows(), b.nnz(), n, K, 1, 1, eSum, eSq, eGram}) {
            in.putInt(v);
        }
        in.putDouble(Math.log(2));
        for (int v : b.indptr()) {
            in.putInt(v);
        }
        for (int v : b.indices()) {
            in.putInt(v);
        }
        for (float v : b.values()) {
            in.putFloat(v);
        }
        for (double[] a : new double[][] {factors, loadings, meanV}) {
            for (double v : a) {
                in.putDouble(v);
            }
        }
        Path input = Files.write(tmp.resolve("in.bin"), in.array());
        Path output = tmp.resolve("out.bin");
        Process p = new ProcessBuilder(EXE.toString(), input.toString(), output.toString())
                .inheritIO()
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        ByteBuffer out = ByteBuffer.wrap(Files.readAllBytes(output)).order(ByteOrder.LITTLE_ENDIAN);

        float[] normalized = floats(out, b.nnz());
        float[] expected = NormalizeLog1p.of(factors, true, 2.0).apply(b).values();
        for (int i = 0; i < expected.length; i++) {
            // the same bits, NaN included (log1p below -1), or one float32 rounding apart (C's log and Java's)
            assertTrue(
                    Float.compare(expected[i], normalized[i]) == 0
                            || Math.abs(expected[i] - normalized[i]) <= 1e-6 * Math.abs(expected[i]),
                    "normalize_log1p entry " + i + ": host " + expected[i] + ", kernel " + normalized[i]);
        }

        double[] sum = new double[n];
        double[] squares = new double[n];
        HostColumnSums.INSTANCE.columnSums(b, true, sum, squares);
        assertClose(sum, cells(out, n, eSum), "column sums");
        assertClose(squares, cells(out, n, eSq), "sums of squares");

        double[] upper = new double[n * (n + 1) / 2];
        double[] gramSums = new double[n];
        HostGram.INSTANCE.gram(List.of(b), upper, gramSums);
        assertClose(upper, cells(out, upper.length, eGram), "Gram");
        assertClose(gramSums, cells(out, n, eSum), "Gram column sums");

        float[] projected = floats(out, b.nRows() * K);
        assertArrayEquals(
                HostProjection.INSTANCE.project(b, loadings, K, meanV).values(),
                projected,
                "projection: the same float64 operations in the same order");
        assertEquals(0, out.remaining());
    }

    /**
     * The re-indexing kernels' items (row counts, row pointers, rows) against {@link ColumnMap#reindex}, the same
     * bits: inner joins in and out of the columns' order, outer joins merged or sorted, fill zero, -1.5 and NaN, rows
     * of up to 32 entries (insertion sort) and longer (packed keys), empty rows, blocks without rows or entries, and
     * rows out of column order.
     */
    @Test
    void reindexItemsOnTheHostGiveTheHostBackendsBlocks() throws Exception {
        assumeTrue(Files.isExecutable(EXE), "no " + EXE + ": built by the nvcc profile where nvcc is installed");
        RowBlock narrow = single(Matrices.random(300, 60, 0.1, 12));
        RowBlock wide = single(Matrices.random(40, 200, 0.3, 13));
        boolean emptyRow = false;
        for (int r = 0; r < narrow.nRows(); r++) {
            emptyRow |= narrow.indptr()[r] == narrow.indptr()[r + 1];
        }
        assertTrue(emptyRow, "the narrow block has empty rows");
        assertTrue(wide.nnz() > 40 * 40, "the wide block's rows hold more than 32 entries");
        List<RowBlock> blocks =
                List.of(narrow, wide, RowBlock.empty(0, 0, 0, 60), RowBlock.empty(2, 7, 5, 60), reversedRows(narrow));
        int checked = 0;
        for (RowBlock b : blocks) {
            int n = b.nCols();
            List<ColumnMap> maps = List.of(
                    map(n, (n + 2) / 3, c -> c % 3 == 0 ? c / 3 : -1),
                    map(n, (n + 1) / 2, c -> c % 2 == 0 ? (n + 1) / 2 - 1 - c / 2 : -1),
                    map(n, n + 10, c -> c + (c < n / 2 ? 0 : 10)),
                    map(n, n + 10, c -> n + 9 - c));
            for (ColumnMap m : maps) {
                for (float fill : new float[] {0, -1.5f, Float.NaN}) {
                    RowBlock expected = m.reindex(b, fill);
                    RowBlock kernel = reindexOnHost(b, m, fill);
                    assertEquals(expected, kernel, b + " by " + (maps.indexOf(m)) + ", fill " + fill);
                    assertArrayEquals(bits(expected.values()), bits(kernel.values()), "values' bits");
                    checked++;
                }
            }
        }
        assertEquals(60, checked);
    }

    private static RowBlock single(CsrMatrix m) {
        return m.blocks(m.plan(PlanTarget.ofChunkNnz(1 << 20))).single().block();
    }

    /** {@code b} with each row's entries in reverse column order (as a file may store them). */
    private static RowBlock reversedRows(RowBlock b) {
        int[] idx = new int[b.nnz()];
        float[] val = new float[b.nnz()];
        int[] p = b.indptr();
        for (int r = 0; r < b.nRows(); r++) {
            for (int k = p[r]; k < p[r + 1]; k++) {
                int to = p[r + 1] - 1 - (k - p[r]);
                idx[to] = b.indices()[k];
                val[to] = b.values()[k];
            }
        }
        return RowBlock.of(b.blockIndex(), b.rowStart(), b.nCols(), p, idx, val);
    }

    private static ColumnMap map(int nIn, int nOut, IntUnaryOperator to) {
        int[] columns = new int[nIn];
        for (int c = 0; c < nIn; c++) {
            columns[c] = to.applyAsInt(c);
        }
        return ColumnMap.of(columns, nOut, "input");
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Float.floatToRawIntBits(v[i]);
        }
        return b;
    }

    /** {@code b} re-indexed by the kernels' items compiled for the host. */
    private RowBlock reindexOnHost(RowBlock b, ColumnMap map, float fill) throws IOException, InterruptedException {
        int[] to = map.columns();
        int[] missing = map.missing();
        ByteBuffer in = ByteBuffer.allocate(4 * (7 + b.nRows() + 2 * b.nnz() + to.length + missing.length))
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int v : new int[] {b.nRows(), b.nnz(), to.length, missing.length, map.keepsOrder() ? 1 : 0}) {
            in.putInt(v);
        }
        in.putFloat(fill);
        for (int[] a : new int[][] {b.indptr(), b.indices()}) {
            for (int v : a) {
                in.putInt(v);
            }
        }
        for (float v : b.values()) {
            in.putFloat(v);
        }
        for (int[] a : new int[][] {to, missing}) {
            for (int v : a) {
                in.putInt(v);
            }
        }
        Path input = Files.write(tmp.resolve("reindex.bin"), in.array());
        Path output = tmp.resolve("reindexed.bin");
        Process p = new ProcessBuilder(EXE.toString(), "reindex", input.toString(), output.toString())
                .inheritIO()
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        ByteBuffer out = ByteBuffer.wrap(Files.readAllBytes(output)).order(ByteOrder.LITTLE_ENDIAN);
        int[] ptr = new int[b.nRows() + 1];
        out.asIntBuffer().get(ptr);
        out.position(4 * ptr.length);
        int[] idx = new int[ptr[b.nRows()]];
        out.asIntBuffer().get(idx);
        out.position(out.position() + 4 * idx.length);
        float[] val = floats(out, idx.length);
        assertEquals(0, out.remaining());
        return RowBlock.of(b.blockIndex(), b.rowStart(), map.nOut(), ptr, idx, val);
    }

    private static float[] floats(ByteBuffer out, int n) {
        float[] f = new float[n];
        out.asFloatBuffer().get(f);
        out.position(out.position() + 4 * n);
        return f;
    }

    private static double[] cells(ByteBuffer out, int n, int e) {
        long[] words = new long[2 * n];
        out.asLongBuffer().get(words);
        out.position(out.position() + 16 * n);
        double[] v = new double[n];
        FixedPoint.addTo(words, e, v);
        return v;
    }

    private static void assertClose(double[] expected, double[] actual, String what) {
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], 1e-12 * Math.max(1, Math.abs(expected[i])), what + " [" + i + "]");
        }
    }
}
