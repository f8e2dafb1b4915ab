/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.test.Matrices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The estimate of an output's size against the bytes the write then takes, for every kind of output: CSR, a CSC
 * input, dense X, gzip, X-free; fixtures and generated data. It must never be below the file (the check before the
 * write would let a file that cannot fit start) and at most 1.2 times it (it would refuse files that fit), or 8 KB
 * above it for the smallest files.
 */
class OutputSizeTest {

    /**
     * How far above a file of a few tens of KB the estimate may be: there HDF5's allocation steps (heap collections
     * of 4 KB and more, aggregated blocks) are a fifth of the file, and no disk is short by so little.
     */
    private static final long SMALL_FILE_SLACK = 8 << 10;

    private static final WriteOptions GZIP = WriteOptions.DEFAULT.withCompression(WriteOptions.Compression.GZIP);

    @TempDir
    Path tmp;

    static Stream<Arguments> fixtures() {
        return Stream.of(
                        "synth-3k.int64.h5ad",
                        "synth-3k.csc-gzip.h5ad",
                        "synth-3k-b.h5ad",
                        "x-dense-lzf.h5ad",
                        "x-csr-anndata08.h5ad",
                        "rich.anndata08.h5ad",
                        "nullable-strings.h5ad",
                        "legacy-07.h5ad",
                        "x-dense-f64-contiguous.h5ad",
                        "x-empty-rows-u16.h5ad",
                        "x-no-entries.h5ad",
                        "x-no-rows.h5ad",
                        "x-csr-contiguous.h5ad")
                .flatMap(f ->
                        Stream.of(Arguments.of(f, "as stored"), Arguments.of(f, "gzip"), Arguments.of(f, "X-free")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixtures")
    void theEstimateOfAFixtureIsAtMostOneFifthAboveTheFile(String fixture, String kind) throws IOException {
        // the x-* files hold X alone (no obs, var)
        AnnData data = fixture.startsWith("x-")
                ? AnnData.of(H5ad.openMatrix(Fixtures.path(fixture), "/X"))
                : H5ad.read(Fixtures.path(fixture));
        assertWithin(
                fixture + " " + kind,
                kind.equals("X-free") ? xFree(data) : data,
                kind.equals("gzip") ? GZIP : WriteOptions.DEFAULT);
    }

    @Test
    void theEstimateOfGeneratedDataIsAtMostOneFifthAboveTheFile() throws IOException {
        for (int[] shape : new int[][] {{10_000, 2_000}, {3_000, 20_000}, {50_000, 500}, {200, 30}}) {
            AnnData data = generated(shape[0], shape[1]);
            String name = "generated " + shape[0] + " x " + shape[1];
            assertWithin(name, data, WriteOptions.DEFAULT);
            assertWithin(name + " gzip", data, GZIP);
            assertWithin(name + " X-free", xFree(data), WriteOptions.DEFAULT);
        }
    }

    /** Counts-like data: a few percent of entries, small integers, with QC-like columns and a categorical. */
    private static AnnData generated(int cells, int genes) {
        AnnData data = AnnData.of(Matrices.random(cells, genes, 0.05, cells + genes));
        Random random = new Random(cells);
        String[] batches = new String[cells];
        double[] totals = new double[cells];
        for (int i = 0; i < cells; i++) {
            batches[i] = "batch-" + random.nextInt(4);
            totals[i] = random.nextInt(5000);
        }
        data.obs().put("batch", CategoricalColumn.fromValues(batches));
        data.obs().put("total_counts", ArrayColumn.of(totals));
        data.var().put("n_cells", ArrayColumn.of(new double[genes]));
        return data;
    }

    private static AnnData xFree(AnnData data) {
        AnnData out = new AnnData(null, data.obs(), data.var());
        data.obsm().forEach(out::putObsm);
        data.varm().forEach(out::putVarm);
        data.obsp().forEach(out::putObsp);
        data.varp().forEach(out::putVarp);
        out.uns().putAll(data.uns());
        return out;
    }

    private void assertWithin(String what, AnnData data, WriteOptions options) throws IOException {
        long estimate = OutputSize.of(data, options).bytes();
        Path out = Files.createTempFile(tmp, "out", ".h5ad");
        Files.delete(out);
        H5ad.write(data, out, options).block();
        long actual = Files.size(out);
        double ratio = (double) estimate / actual;
        System.out.printf(
                "OutputSizeTest: %-40s estimate %,12d bytes, written %,12d: %.3f%n", what, estimate, actual, ratio);
        assertTrue(
                ratio >= 1.0 && (ratio <= 1.2 || estimate - actual <= SMALL_FILE_SLACK),
                what + ": estimate " + estimate + " for " + actual + " written (" + ratio + ")");
        Files.delete(out);
    }
}
