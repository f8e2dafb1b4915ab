/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.scale;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Threads;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.reference.Reference;
import io.scflux.ops.reference.ReferenceInput;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** scale against scanpy's {@code sc.pp.scale(sub, max_value=10)} and against calculations written here. */
class ScaleTest {

    @TempDir
    Path dir;

    private static double[] doubles(AnnData a, String column) {
        return (double[]) ((ArrayColumn) a.var().column(column)).values().data();
    }

    /** The whole matrix, as float64 rows (missing entries zero). */
    static double[][] dense(BlockSource x, Streaming streaming) {
        CsrMatrix m = CsrMatrix.collect(streaming.blocks(x), x.nCols()).block();
        double[][] d = new double[(int) x.nRows()][x.nCols()];
        for (int r = 0; r < d.length; r++) {
            for (long k = m.indptr(r); k < m.indptr(r + 1); k++) {
                d[r][m.index(k)] = m.value(k);
            }
        }
        return d;
    }

    @Test
    void matchesScanpyOnTheReferenceInput() {
        AnnData ours = Scale.scale(
                        ReferenceInput.log1pHvg(), ScaleOptions.defaults().withMaxValue(10.0), Streaming.DEFAULT)
                .block();
        AnnData scanpy = Reference.h5ad("scaled");
        for (String column : new String[] {"mean", "std"}) {
            double[] mine = doubles(ours, column);
            double[] theirs = doubles(scanpy, column);
            double worst = 0;
            for (int c = 0; c < mine.length; c++) {
                worst = Math.max(worst, Math.abs(mine[c] - theirs[c]) / Math.abs(theirs[c]));
            }
            System.out.printf("scale var %s: max relative error %.2e%n", column, worst);
            assertTrue(worst <= 1e-6, column + ": max relative error " + worst);
        }
        assertTrue(ours.x().isDense());
        assertEquals(DType.FLOAT64, ours.x().dtype());
        double[][] mine = dense(ours.x(), Streaming.DEFAULT);
        double[][] theirs;
        try (HdfFile f = new HdfFile(Reference.resource("scaled.h5ad"))) {
            theirs = (double[][]) f.getDatasetByPath("/X").getData();
        }
        double worst = 0;
        int clipped = 0;
        for (int r = 0; r < theirs.length; r++) {
            for (int c = 0; c < theirs[r].length; c++) {
                double e = theirs[r][c];
                worst = Math.max(worst, Math.abs(mine[r][c] - e) / Math.max(1, Math.abs(e)));
                if (Math.abs(e) == 10) {
                    clipped++;
                    assertEquals(e, mine[r][c], "clipped at row " + r + " column " + c);
                }
            }
        }
        System.out.printf(
                "scale X (first %d rows): max |difference| / max(1, |value|) %.2e, %d clipped%n",
                theirs.length, worst, clipped);
        assertTrue(clipped > 0, "the reference clips some values");
        assertTrue(worst <= 1e-6, "scaled values differ by up to " + worst);
    }

    /** Without centring: the pattern is kept, values divided by the unbiased deviation and clipped above only. */
    @Test
    void withoutCentringTheMatrixStaysSparseAndOnlyLargeValuesAreClipped() {
        AnnData ours = ReferenceInput.log1pHvg();
        BlockSource input = ours.x();
        double[][] x = dense(input, Streaming.DEFAULT);
        ours = Scale.scale(ours, new ScaleOptions(false, 3.0), Streaming.DEFAULT)
                .block();
        assertFalse(ours.x().isDense());
        assertEquals(DType.FLOAT64, ours.x().dtype());
        double[] std = doubles(ours, "std");
        int n = x.length;
        for (int c = 0; c < std.length; c++) {
            double mean = 0;
            for (double[] row : x) {
                mean += row[c];
            }
            mean /= n;
            double ss = 0;
            for (double[] row : x) {
                ss += (row[c] - mean) * (row[c] - mean);
            }
            double expected = Math.sqrt(ss / (n - 1));
            assertEquals(expected, std[c], 1e-6 * expected, "std of column " + c);
            assertEquals(mean, doubles(ours, "mean")[c], 1e-9 * Math.abs(mean), "mean of column " + c);
        }
        CsrMatrix scaled = CsrMatrix.collect(Streaming.DEFAULT.blocks(ours.x()), std.length)
                .block();
        CsrMatrix original =
                CsrMatrix.collect(Streaming.DEFAULT.blocks(input), std.length).block();
        assertEquals(original.nnz(), scaled.nnz());
        boolean anyClipped = false;
        for (long k = 0; k < scaled.nnz(); k++) {
            int c = original.index(k);
            assertEquals(c, scaled.index(k));
            double y = original.value(k) / std[c];
            anyClipped |= y > 3;
            assertEquals((float) Math.min(y, 3), scaled.value(k), "entry " + k);
        }
        assertTrue(anyClipped);
    }

    /** A dense float32 array stays float32 and is scaled as numpy does in place: centred, rounded, divided, rounded. */
    @Test
    void aDenseFloat32ArrayIsScaledInFloat32Steps() {
        AnnData a = AnnData.of(H5ad.openMatrix(TestFixtures.path("x-dense-lzf.h5ad"), "/X"));
        double[][] x = dense(a.x(), Streaming.DEFAULT);
        a = Scale.scale(a, ScaleOptions.defaults(), Streaming.DEFAULT).block();
        assertTrue(a.x().isDense());
        assertEquals(DType.FLOAT32, a.x().dtype());
        double[] mean = doubles(a, "mean");
        double[] std = doubles(a, "std");
        double[][] scaled = dense(a.x(), Streaming.DEFAULT);
        for (int r = 0; r < x.length; r++) {
            for (int c = 0; c < x[r].length; c++) {
                float centred = (float) (x[r][c] - mean[c]);
                assertEquals((float) (centred / std[c]), (float) scaled[r][c], "row " + r + " column " + c);
            }
        }
    }

    @Test
    void oneTwoAndEightThreadsGiveTheSameBits() {
        Streaming small = Streaming.DEFAULT.withTarget(BlockSize.SMALL.target());
        AnnData one = Scale.scale(
                        ReferenceInput.log1pHvg(),
                        ScaleOptions.defaults().withMaxValue(10.0),
                        small.withThreads(Threads.ONE.count()))
                .block();
        double[][] x = dense(one.x(), small);
        for (Threads t : new Threads[] {Threads.TWO, Threads.EIGHT}) {
            Streaming s = small.withThreads(t.count());
            AnnData other = Scale.scale(
                            ReferenceInput.log1pHvg(), ScaleOptions.defaults().withMaxValue(10.0), s)
                    .block();
            assertArrayEquals(doubles(one, "mean"), doubles(other, "mean"), t + ": mean");
            assertArrayEquals(doubles(one, "std"), doubles(other, "std"), t + ": std");
            double[][] y = dense(other.x(), s);
            for (int r = 0; r < x.length; r++) {
                assertArrayEquals(x[r], y[r], t + ": row " + r);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = BlockSize.class,
            names = {"ONE_ROW", "TINY", "DEFAULT"})
    void blockPlansAgreeWithinRounding(BlockSize size) {
        Streaming reference = Streaming.DEFAULT.withTarget(BlockSize.SMALL.target());
        AnnData a = Scale.scale(ReferenceInput.log1pHvg(), ScaleOptions.defaults(), reference)
                .block();
        Streaming other = Streaming.DEFAULT.withTarget(size.target()).withThreads(2);
        AnnData b = Scale.scale(ReferenceInput.log1pHvg(), ScaleOptions.defaults(), other)
                .block();
        for (String column : new String[] {"mean", "std"}) {
            double[] u = doubles(a, column);
            double[] v = doubles(b, column);
            for (int c = 0; c < u.length; c++) {
                assertEquals(u[c], v[c], 1e-12 * Math.abs(u[c]), size + ": " + column + " " + c);
            }
        }
        double[][] x = dense(a.x(), reference);
        double[][] y = dense(b.x(), other);
        for (int r = 0; r < x.length; r++) {
            for (int c = 0; c < x[r].length; c++) {
                assertEquals(x[r][c], y[r][c], 1e-6 * Math.max(1, Math.abs(x[r][c])), size + ": " + r + ", " + c);
            }
        }
    }

    @Test
    void theScaledMatrixIsWrittenDenseWithItsStatistics() {
        AnnData ours = Scale.scale(
                        ReferenceInput.log1pHvg(), ScaleOptions.defaults().withMaxValue(10.0), Streaming.DEFAULT)
                .block();
        Path file = dir.resolve("scaled.h5ad");
        H5ad.write(ours, file, io.scflux.io.WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(100_000)))
                .block();
        AnnData back = H5ad.read(file);
        assertTrue(back.x().isDense());
        assertEquals(DType.FLOAT64, back.x().dtype());
        assertArrayEquals(doubles(ours, "mean"), doubles(back, "mean"));
        assertArrayEquals(doubles(ours, "std"), doubles(back, "std"));
        double[][] x = dense(ours.x(), Streaming.DEFAULT);
        double[][] y = dense(back.x(), Streaming.DEFAULT);
        for (int r = 0; r < x.length; r++) {
            assertArrayEquals(x[r], y[r], "row " + r);
        }
    }
}
