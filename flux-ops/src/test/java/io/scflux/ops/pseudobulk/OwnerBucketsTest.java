/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pseudobulk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Threads;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The owner-bucket scatter-add: every accumulator cell gets its additions in row order, so its bits equal a plain
 * row-order sum computed here whatever the threads, the block plan and the bucket count; and there is one accumulator,
 * not one per thread.
 */
class OwnerBucketsTest {

    private static final int ROWS = 700;
    private static final int COLS = 300;
    private static final int GROUPS = 9;

    /** Values of magnitudes from 1e-12 to 1e12, so that the order of additions shows in float64 sums. */
    private static CsrMatrix data() {
        return data(false);
    }

    /**
     * As {@link #data()}; with {@code someRowsReversed}, every seventh row lists its columns backwards (scipy allows
     * unsorted indices), which takes the copying split instead of the row-bounds one.
     */
    private static CsrMatrix data(boolean someRowsReversed) {
        SplittableRandom rnd = new SplittableRandom(3);
        CsrMatrix.Builder b = CsrMatrix.builder(COLS);
        for (int r = 0; r < ROWS; r++) {
            int n = 0;
            int[] idx = new int[COLS];
            float[] val = new float[COLS];
            for (int c = 0; c < COLS; c++) {
                if (rnd.nextInt(5) == 0) {
                    idx[n] = c;
                    val[n++] =
                            rnd.nextInt(7) == 0 ? 0 : (float) (rnd.nextDouble() * Math.pow(10, rnd.nextInt(-12, 13)));
                }
            }
            int[] rowIdx = Arrays.copyOf(idx, n);
            float[] rowVal = Arrays.copyOf(val, n);
            if (someRowsReversed && r % 7 == 3) {
                for (int i = 0; i < n / 2; i++) {
                    int t = rowIdx[i];
                    rowIdx[i] = rowIdx[n - 1 - i];
                    rowIdx[n - 1 - i] = t;
                    float v = rowVal[i];
                    rowVal[i] = rowVal[n - 1 - i];
                    rowVal[n - 1 - i] = v;
                }
            }
            b.addRow(rowIdx, rowVal);
        }
        return b.build();
    }

    private static int[] groups() {
        SplittableRandom rnd = new SplittableRandom(4);
        int[] g = new int[ROWS];
        for (int r = 0; r < ROWS; r++) {
            g[r] = rnd.nextInt(GROUPS + 1) - 1;
        }
        return g;
    }

    /** The sums added one row after the other, in row order or reversed. */
    private static double[] plainSums(CsrMatrix x, int[] group, boolean reversed) {
        double[] s = new double[GROUPS * COLS];
        for (int i = 0; i < ROWS; i++) {
            int r = reversed ? ROWS - 1 - i : i;
            if (group[r] >= 0) {
                for (long k = x.indptr(r); k < x.indptr(r + 1); k++) {
                    s[group[r] * COLS + x.index(k)] += x.value(k);
                }
            }
        }
        return s;
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "some rows reversed: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void sameBitsAsARowOrderSumWithAnyThreadsPlanAndBuckets(boolean someRowsReversed) {
        CsrMatrix x = data(someRowsReversed);
        int[] group = groups();
        double[] expected = plainSums(x, group, false);
        assertFalse(Arrays.equals(expected, plainSums(x, group, true)), "the data make the order of additions visible");
        double[] nonzero = new double[GROUPS * COLS];
        for (int r = 0; r < ROWS; r++) {
            for (long k = x.indptr(r); k < x.indptr(r + 1); k++) {
                nonzero[Math.max(0, group[r]) * COLS + x.index(k)] += group[r] >= 0 && x.value(k) != 0 ? 1 : 0;
            }
        }
        for (Threads t : Threads.values()) {
            for (BlockSize b : BlockSize.values()) {
                for (int buckets : new int[] {1, 5, OwnerBuckets.BUCKETS, COLS + 10}) {
                    OwnerBuckets acc = new OwnerBuckets(GROUPS, COLS, group, buckets)
                            .sum(x, new Streaming(b.target(), t.execution()))
                            .block();
                    String where = t + " " + b + " " + buckets + " buckets";
                    for (int i = 0; i < expected.length; i++) {
                        assertEquals(
                                Double.doubleToLongBits(expected[i]),
                                Double.doubleToLongBits(acc.sums()[i]),
                                where + ": cell " + i);
                    }
                    assertTrue(Arrays.equals(nonzero, acc.nonzero()), where + ": non-zero counts");
                }
            }
        }
    }

    @Test
    void theBucketCountIsAConstantAndTheAccumulatorIsOne() {
        CsrMatrix x = data();
        for (Threads t : Threads.values()) {
            OwnerBuckets acc = new OwnerBuckets(GROUPS, COLS, groups(), OwnerBuckets.BUCKETS);
            double[] cells = acc.accumulator();
            assertSame(acc, acc.sum(x, Streaming.DEFAULT.withThreads(t.count())).block());
            assertEquals(OwnerBuckets.BUCKETS, acc.buckets(), "buckets do not follow the threads");
            assertSame(cells, acc.accumulator(), "the one accumulator is summed in place");
            assertEquals(2 * GROUPS * COLS, cells.length, "a sum and a count per cell");
        }
        assertEquals(
                3,
                new OwnerBuckets(GROUPS, 3, groups(), OwnerBuckets.BUCKETS).buckets(),
                "at most one bucket per column");
    }

    /**
     * Eight workers on an accumulator much larger than the data allocate far less than eight accumulators would:
     * measured with the JVM's per-thread allocation counters over every thread.
     */
    @Test
    void eightThreadsDoNotCopyTheAccumulator() {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(
                mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(),
                "per-thread allocation counters are not available on this JVM");
        int groups = 400;
        int cols = 5000;
        CsrMatrix.Builder b = CsrMatrix.builder(cols);
        int[] group = new int[4000];
        for (int r = 0; r < group.length; r++) {
            b.addRow(new int[] {r % cols, (r * 7 + 1) % cols}, new float[] {1, 2});
            group[r] = r % groups;
        }
        CsrMatrix x = b.build();
        long accumulatorBytes = 2L * 8 * groups * cols;
        Streaming eight = new Streaming(BlockSize.TINY.target(), Threads.EIGHT.execution());
        new OwnerBuckets(groups, cols, group, OwnerBuckets.BUCKETS)
                .sum(x, eight)
                .block(); // warm the workers up
        Map<Long, Long> before = allocated(mx);
        OwnerBuckets acc = new OwnerBuckets(groups, cols, group, OwnerBuckets.BUCKETS)
                .sum(x, eight)
                .block();
        Map<Long, Long> after = allocated(mx);
        long total = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            total += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        assertEquals(2.0, acc.sums()[group[0] * cols + 1]);
        assertTrue(
                total < 3 * accumulatorBytes,
                "allocated " + total + " bytes with an accumulator of " + accumulatorBytes + "; eight copies would be "
                        + 8 * accumulatorBytes);
    }

    private static Map<Long, Long> allocated(com.sun.management.ThreadMXBean mx) {
        long[] ids = mx.getAllThreadIds();
        long[] bytes = mx.getThreadAllocatedBytes(ids);
        Map<Long, Long> out = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] >= 0) {
                out.put(ids[i], bytes[i]);
            }
        }
        return out;
    }
}
