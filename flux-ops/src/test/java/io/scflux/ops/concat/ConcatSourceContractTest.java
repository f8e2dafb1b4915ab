/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.HostBackend;
import io.scflux.core.PlacedSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.BlockSourceContract;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.RecordingBackend;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * Concatenations stream every input's rows with columns re-indexed, checked against dense stacking: inner joins
 * (columns dropped), outer joins (columns reordered, implicit zeros or a fill value), an empty input between others.
 */
class ConcatSourceContractTest {

    private static final CsrMatrix A = Matrices.random(60, 12, 0.3, 1);
    private static final CsrMatrix EMPTY = Matrices.random(0, 9, 0.3, 2);
    private static final CsrMatrix B = Matrices.random(45, 9, 0.4, 3);
    private static final CsrMatrix C = Matrices.random(30, 12, 0.2, 4);

    /** Each input placed into {@code nCols} columns densely by {@code maps}, padded with {@code fill}, as CSR. */
    static CsrMatrix denseStack(List<CsrMatrix> inputs, List<int[]> maps, int nCols, float fill) {
        CsrMatrix.Builder out = CsrMatrix.builder(nCols);
        for (int i = 0; i < inputs.size(); i++) {
            CsrMatrix m = inputs.get(i);
            int[] map = maps.get(i);
            boolean[] covered = new boolean[nCols];
            for (int c = 0; c < m.nCols(); c++) {
                int o = map == null ? c : map[c];
                if (o >= 0) {
                    covered[o] = true;
                }
            }
            for (long r = 0; r < m.nRows(); r++) {
                float[] row = new float[nCols];
                for (int o = 0; o < nCols; o++) {
                    row[o] = covered[o] ? 0 : fill;
                }
                for (long k = m.indptr(r); k < m.indptr(r + 1); k++) {
                    int o = map == null ? m.index(k) : map[m.index(k)];
                    if (o >= 0) {
                        row[o] = m.value(k);
                    }
                }
                int[] idx = new int[nCols];
                float[] val = new float[nCols];
                int n = 0;
                for (int o = 0; o < nCols; o++) {
                    if (row[o] != 0) {
                        idx[n] = o;
                        val[n++] = row[o];
                    }
                }
                out.addRow(Arrays.copyOf(idx, n), Arrays.copyOf(val, n));
            }
        }
        return out.build();
    }

    abstract static class Case extends BlockSourceContract {
        abstract List<CsrMatrix> inputs();

        abstract List<int[]> maps();

        abstract int nCols();

        float fill() {
            return 0;
        }

        @Override
        protected BlockSource source() {
            return ConcatSource.of(inputs(), maps(), nCols(), fill());
        }

        @Override
        protected CsrMatrix expected() {
            return denseStack(inputs(), maps(), nCols(), fill());
        }
    }

    /** Inner join on 6 columns: A keeps 6 of its 12 (in its order), B 6 of its 9 in another order. */
    @Nested
    class Inner extends Case {
        List<CsrMatrix> inputs() {
            return List.of(A, B);
        }

        List<int[]> maps() {
            return Arrays.asList(
                    new int[] {0, -1, 1, -1, 2, -1, 3, -1, 4, -1, 5, -1}, new int[] {5, 4, -1, 3, 2, -1, 1, 0, -1});
        }

        int nCols() {
            return 6;
        }
    }

    /** Outer join on 15 columns with an empty input and reordered columns. */
    @Nested
    class Outer extends Case {
        List<CsrMatrix> inputs() {
            return List.of(A, EMPTY, B, C);
        }

        List<int[]> maps() {
            int[] shifted = new int[12];
            for (int c = 0; c < 12; c++) {
                shifted[c] = c + 3;
            }
            return Arrays.asList(
                    shifted,
                    new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8},
                    new int[] {14, 0, 13, 1, 12, 2, 11, 3, 10},
                    new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
        }

        int nCols() {
            return 15;
        }
    }

    /** Inputs with the same columns: blocks passed through, each input's reader closed once it is read. */
    @Nested
    class Stacked extends Case {
        List<CsrMatrix> inputs() {
            return List.of(A, C);
        }

        List<int[]> maps() {
            return Arrays.asList(null, null);
        }

        int nCols() {
            return 12;
        }

        @Test
        void anInputsReaderClosesOnceItsRowsAreRead() {
            CountingSource a = CountingSource.of(A);
            CountingSource c = CountingSource.of(C);
            ConcatSource s = ConcatSource.of(List.of(a, c));
            PlanTarget t = BlockSize.TINY.target();
            int aBlocks = A.plan(t).size();
            assertTrue(C.plan(t).size() > 1, "C spans several blocks");
            StepVerifier.create(s.blocks(s.plan(t)), 0)
                    .thenRequest(aBlocks + 1)
                    .expectNextCount(aBlocks + 1)
                    .then(() -> {
                        assertEquals(1, a.closed.get(), "A's reader closed once A is read");
                        assertEquals(1, c.opened.get());
                        assertEquals(0, c.closed.get(), "C's reader open while C is read");
                    })
                    .thenCancel()
                    .verify(WAIT);
            awaitClosed(c);
        }
    }

    /**
     * Rows of 40 to 90 entries padded with a fill value: reversed columns (sorted by packed keys, the buffer reused
     * and grown across rows) and shifted ones (entries merged with the filled columns).
     */
    @Nested
    class Wide extends Case {
        private final CsrMatrix w = Matrices.random(40, 80, 0.6, 5);

        List<CsrMatrix> inputs() {
            return List.of(w, w);
        }

        List<int[]> maps() {
            int[] reversed = new int[80];
            int[] shifted = new int[80];
            for (int c = 0; c < 80; c++) {
                reversed[c] = 89 - c;
                shifted[c] = c + (c < 40 ? 0 : 10);
            }
            return Arrays.asList(reversed, shifted);
        }

        int nCols() {
            return 90;
        }

        @Override
        float fill() {
            return 2;
        }
    }

    /** The wide rows with every input resident on a test double device, re-indexed there, read by a host consumer. */
    @Nested
    class WideOnDevice extends Wide {
        @Override
        protected BlockSource source() {
            return onDevice(inputs(), maps(), nCols(), fill());
        }
    }

    /** The inner join with every input resident on a test double device. */
    @Nested
    class InnerOnDevice extends Inner {
        @Override
        protected BlockSource source() {
            return onDevice(inputs(), maps(), nCols(), fill());
        }
    }

    /** The concatenation of {@code inputs} placed on a test double device, as a host consumer reads it. */
    static BlockSource onDevice(List<CsrMatrix> inputs, List<int[]> maps, int nCols, float fill) {
        RecordingBackend device = RecordingDevice.of("double");
        List<BlockSource> placed =
                inputs.stream().map(m -> PlacedSource.on(device, m)).toList();
        return PlacedSource.on(HostBackend.INSTANCE, ConcatSource.of(placed, maps, nCols, fill));
    }

    /** Outer join padded with a fill value, as anndata does when {@code fill_value} is given. */
    @Nested
    class Filled extends Case {
        List<CsrMatrix> inputs() {
            return List.of(B, A);
        }

        List<int[]> maps() {
            return Arrays.asList(
                    new int[] {1, 3, 5, 7, 9, 11, 13, 2, 0}, new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12});
        }

        int nCols() {
            return 14;
        }

        @Override
        float fill() {
            return -1;
        }
    }

    @Test
    void planIsTheInputsPlansOneAfterTheOther() {
        PlanTarget t = BlockSize.TINY.target();
        ConcatSource s = ConcatSource.of(List.of(A, C, A));
        BlockPlan plan = s.plan(t);
        assertEquals(A.plan(t).size() * 2 + C.plan(t).size(), plan.size());
        assertEquals(A.nRows(), plan.rowStart(A.plan(t).size()), "a block starts where C starts");
        assertEquals(A.nnz() * 2 + C.nnz(), plan.totalNnz());
    }

    @Test
    void rowCountsOfAnInnerJoinBoundTheKeptEntriesByTheInputs() {
        int[] map = {0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
        ConcatSource s = ConcatSource.of(List.of(A), List.<int[]>of(map), 1, 0);
        int[] counts = new int[(int) A.nRows()];
        s.rowNnz(0, counts.length, counts);
        for (int r = 0; r < counts.length; r++) {
            int expected = 0;
            for (long k = A.indptr(r); k < A.indptr(r + 1); k++) {
                expected += A.index(k) == 0 ? 1 : 0;
            }
            long own = A.indptr(r + 1) - A.indptr(r);
            assertTrue(
                    counts[r] >= expected && counts[r] <= own,
                    "row " + r + ": " + counts[r] + " not in [" + expected + ", " + own + "]");
        }
    }

    @Test
    void blocksOfAnUnchangedInputAreItsOwn() {
        PlanTarget t = BlockSize.TINY.target();
        List<RowBlock> alone = A.blocks(A.plan(t)).collectList().block();
        ConcatSource s = ConcatSource.of(List.of(A, A));
        List<RowBlock> both = s.blocks(s.plan(t)).collectList().block();
        for (int i = 0; i < alone.size(); i++) {
            assertEquals(alone.get(i), both.get(i));
            RowBlock second = both.get(alone.size() + i);
            assertEquals(
                    alone.get(i)
                            .relocate(alone.size() + i, A.nRows() + alone.get(i).rowStart()),
                    second);
        }
    }

    @Test
    void valueTypeIsNumpysPromotion() {
        BlockSource ints = A.withDtype(DType.INT32);
        BlockSource floats = A.withDtype(DType.FLOAT32);
        assertEquals(DType.FLOAT64, ConcatSource.of(List.of(ints, floats)).dtype(), "int32 + float32");
        assertEquals(
                DType.FLOAT32,
                ConcatSource.of(List.of(A.withDtype(DType.INT16), floats)).dtype());
        assertEquals(
                DType.INT64,
                ConcatSource.of(List.of(ints, A.withDtype(DType.UINT32))).dtype());
        assertEquals(DType.FLOAT32, ConcatSource.of(List.of(floats, floats)).dtype());
        int[] wider = new int[12];
        for (int c = 0; c < 12; c++) {
            wider[c] = c;
        }
        assertEquals(
                DType.FLOAT64,
                ConcatSource.of(List.of(ints), List.<int[]>of(wider), 13, Float.NaN)
                        .dtype(),
                "a NaN fill makes integers float64");
        assertEquals(
                DType.INT32,
                ConcatSource.of(List.of(ints), List.<int[]>of(wider), 13, 0).dtype());
    }

    @Test
    void cacheKeyComposesTheInputsKeys() {
        assertNull(ConcatSource.of(List.of(A, A)).cacheKey(), "in-memory inputs have no key");
        BlockSource keyed = new io.scflux.core.ForwardingSource(A) {
            @Override
            public Object cacheKey() {
                return "a";
            }
        };
        Object same = ConcatSource.of(List.of(keyed, keyed)).cacheKey();
        assertEquals(same, ConcatSource.of(List.of(keyed, keyed)).cacheKey());
        int[] swap = new int[12];
        for (int c = 0; c < 12; c++) {
            swap[c] = 11 - c;
        }
        assertNotEquals(
                same,
                ConcatSource.of(List.of(keyed, keyed), Arrays.asList(null, swap), 12, 0)
                        .cacheKey());
    }

    @Test
    void badColumnMapsAreRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ConcatSource.of(List.of(B), List.<int[]>of(new int[] {0, 0, 1, 2, 3, 4, 5, 6, 7}), 9, 0));
        assertThrows(
                IllegalArgumentException.class,
                () -> ConcatSource.of(List.of(B), List.<int[]>of(new int[] {0, 1}), 9, 0));
        assertThrows(IllegalArgumentException.class, () -> ConcatSource.of(List.of(A, B)));
    }
}
