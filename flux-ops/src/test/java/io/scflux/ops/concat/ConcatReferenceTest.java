/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.scflux.core.Backend;
import io.scflux.core.BlockSource;
import io.scflux.core.HostBackend;
import io.scflux.core.PlacedSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.Resident;
import io.scflux.core.RowBlock;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.test.RecordingBackend;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.reference.Reference;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code ad.concat([a, b], join=..., label="batch", keys=["a", "b"], index_unique="-")} against anndata 0.12's own
 * output (extracted by {@code src/test/python/extract_concat.py}): obs and var names in order, obs columns with their
 * categories and values, X's type and every row's and column's entries (count, sum, position-weighted sum), both as
 * streamed and as written to .h5ad and read back; the same with both inputs' X resident on a test double device,
 * re-indexed there and downloaded only by the consumers (the reference's reader, the writer).
 */
class ConcatReferenceTest {

    @TempDir
    Path dir;

    /** Input a: the int64 copy holds the same names and values as synth-3k.anndata.h5ad, which the oracle read. */
    private static AnnData concat(ConcatOptions.Join join, Backend backend) {
        AnnData a = H5ad.read(TestFixtures.path("synth-3k.int64.h5ad"));
        AnnData b = H5ad.read(TestFixtures.path("synth-3k-b.h5ad"));
        a.setX(PlacedSource.on(backend, a.x()));
        b.setX(PlacedSource.on(backend, b.x()));
        return Concat.concat(
                List.of(a, b),
                ConcatOptions.defaults()
                        .withJoin(join)
                        .withLabel("batch")
                        .withKeys(List.of("a", "b"))
                        .withIndexUnique("-"));
    }

    @ParameterizedTest
    @EnumSource(ConcatOptions.Join.class)
    void matchesAnndata(ConcatOptions.Join join) {
        AnnData result = concat(join, HostBackend.INSTANCE);
        check(join, result);
        Path out = dir.resolve("concat.h5ad");
        H5ad.write(result, out).block();
        check(join, H5ad.read(out));
    }

    @ParameterizedTest
    @EnumSource(ConcatOptions.Join.class)
    void inputsResidentOnADeviceMatchAnndataDownloadedOnlyByTheConsumers(ConcatOptions.Join join) {
        RecordingBackend device = RecordingDevice.of("double");
        AnnData result = concat(join, device);
        assertSame(device, Resident.of(result.x()));
        int blocks = result.x().plan(PlanTarget.DEFAULT).size();
        check(join, result);
        assertEquals(blocks, device.count("download"), "the reference's reader downloads each block once");
        assertEquals(blocks, device.count("reindex"), "every block re-indexed on the device");
        H5ad.write(result, dir.resolve("concat.h5ad")).block();
        assertEquals(2L * blocks, device.count("download"), "the writer downloads each block once");
        assertEquals(0, device.memory().reserved(), "no block left resident");
        check(join, H5ad.read(dir.resolve("concat.h5ad")));
    }

    private static void check(ConcatOptions.Join join, AnnData result) {
        String name = "concat_" + join.name().toLowerCase();
        Reference.Table m = Reference.csv(name + "_meta");
        Map<String, String> meta =
                Arrays.stream(m.rowNames()).collect(Collectors.toMap(k -> k, k -> m.string(m.row(k), "value")));
        Reference.Table obs = Reference.csv(name + "_obs");
        assertArrayEquals(obs.rowNames(), result.obs().index(), "obs names");
        assertArrayEquals(Reference.csv(name + "_var").rowNames(), result.var().index(), "var names");
        assertEquals(
                meta.get("obs_columns"), String.join(";", result.obs().columns().keySet()), "obs columns");
        assertEquals(
                meta.get("var_columns"), String.join(";", result.var().columns().keySet()), "var columns");
        for (String c : result.obs().columns().keySet()) {
            String[] kind = meta.get("obs_" + c).split(";", -1);
            Column col = result.obs().column(c);
            CategoricalColumn cat = assertInstanceOf(CategoricalColumn.class, col, c);
            assertEquals(kind[0], "categorical");
            assertEquals(kind[1], cat.codeType().numpyName(), c + " code type");
            assertArrayEquals(kind[2].split("\\|"), cat.categories().strings(), c + " categories");
            String[] expected = obs.strings(c);
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], String.valueOf(col.get(i)), c + " at row " + i);
            }
        }
        BlockSource x = result.x();
        assertEquals(meta.get("X_dtype"), x.dtype().numpyName());
        assertEquals(meta.get("X_shape"), x.nRows() + ";" + x.nCols());
        assertFalse(x.isDense(), meta.get("X_encoding"));
        long[] rowNnz = new long[(int) x.nRows()];
        double[] rowSum = new double[rowNnz.length];
        double[] rowWeighted = new double[rowNnz.length];
        long[] colNnz = new long[x.nCols()];
        double[] colSum = new double[x.nCols()];
        for (RowBlock b : Streaming.DEFAULT.withThreads(2).blocks(x).toIterable()) {
            int[] p = b.indptr();
            for (int r = 0; r < b.nRows(); r++) {
                int row = (int) b.rowStart() + r;
                rowNnz[row] = p[r + 1] - p[r];
                for (int k = p[r]; k < p[r + 1]; k++) {
                    double v = b.values()[k];
                    int c = b.indices()[k];
                    rowSum[row] += v;
                    rowWeighted[row] += v * (c + 1);
                    colNnz[c]++;
                    colSum[c] += v;
                }
            }
        }
        Reference.Table rows = Reference.csv(name + "_rows");
        Reference.Table cols = Reference.csv(name + "_cols");
        assertArrayEquals(
                rows.doubles("nnz"), Arrays.stream(rowNnz).asDoubleStream().toArray(), "row nnz");
        assertArrayEquals(rows.doubles("sum"), rowSum, "row sums");
        assertArrayEquals(rows.doubles("weighted"), rowWeighted, "row entries by position");
        assertArrayEquals(
                cols.doubles("nnz"), Arrays.stream(colNnz).asDoubleStream().toArray(), "column nnz");
        assertArrayEquals(cols.doubles("sum"), colSum, "column sums");
    }
}
