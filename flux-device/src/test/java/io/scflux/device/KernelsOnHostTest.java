package io.scflux.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.backend.HostBackend;
import io.scflux.core.test.Matrices;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
        RowBlock counts = m.blocks(m.plan(PlanTarget.ofChunkNnz(1 << 20))).single().block();
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

        ByteBuffer in = ByteBuffer.allocate(9 * 4 + 8 + 4 * (b.nRows() + 1) + 8 * b.nnz()
                + 8 * (factors.length + loadings.length + K)).order(ByteOrder.LITTLE_ENDIAN);
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
        Process p = new ProcessBuilder(EXE.toString(), input.toString(), output.toString()).inheritIO().start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        ByteBuffer out = ByteBuffer.wrap(Files.readAllBytes(output)).order(ByteOrder.LITTLE_ENDIAN);

        float[] normalized = floats(out, b.nnz());
        float[] expected = HostBackend.INSTANCE.normalizeLog1p(factors, true, 2.0).apply(b).values();
        for (int i = 0; i < expected.length; i++) {
            // the same bits, NaN included (log1p below -1), or one float32 rounding apart (C's log and Java's)
            assertTrue(Float.compare(expected[i], normalized[i]) == 0
                    || Math.abs(expected[i] - normalized[i]) <= 1e-6 * Math.abs(expected[i]),
                    "normalize_log1p entry " + i + ": host " + expected[i] + ", kernel " + normalized[i]);
        }

        double[] sum = new double[n];
        double[] squares = new double[n];
        HostBackend.INSTANCE.columnSums(b, true, sum, squares);
        assertClose(sum, cells(out, n, eSum), "column sums");
        assertClose(squares, cells(out, n, eSq), "sums of squares");

        double[] upper = new double[n * (n + 1) / 2];
        double[] gramSums = new double[n];
        HostBackend.INSTANCE.gram(b, upper, gramSums);
        assertClose(upper, cells(out, upper.length, eGram), "Gram");
        assertClose(gramSums, cells(out, n, eSum), "Gram column sums");

        float[] projected = floats(out, b.nRows() * K);
        assertArrayEquals(HostBackend.INSTANCE.project(b, loadings, K, meanV).values(), projected,
                "projection: the same float64 operations in the same order");
        assertEquals(0, out.remaining());
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
