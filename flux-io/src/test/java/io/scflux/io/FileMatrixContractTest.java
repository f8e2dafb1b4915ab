/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.scflux.core.BlockSource;
import io.scflux.core.Settings;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSourceContract;
import java.lang.reflect.Array;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each stored layout through the block source scenarios. The expected matrix is decoded by jhdf's own whole-dataset
 * reader ({@code getData}), a path independent of scflux's block reader.
 */
@Tag("slow")
class FileMatrixContractTest {

    @TempDir
    static Path cache;

    /** The settings whose cache folder keeps this class's transposed stores apart. */
    static Settings isolated() {
        return Settings.DEFAULT.withCacheDir(cache);
    }

    /** The matrix at /X as jhdf decodes it: CSR and CSC groups through their arrays, dense through getData. */
    static CsrMatrix viaJhdf(Path file) {
        try (HdfFile h = new HdfFile(file)) {
            if (h.getByPath("/X") instanceof Dataset dense) {
                Object rows = dense.getData();
                int n = Array.getLength(rows);
                int cols = dense.getDimensions()[1];
                CsrMatrix.Builder b = CsrMatrix.builder(cols);
                for (int r = 0; r < n; r++) {
                    Object row = Array.get(rows, r);
                    int[] idx = new int[cols];
                    float[] val = new float[cols];
                    int k = 0;
                    for (int c = 0; c < cols; c++) {
                        float v = ((Number) Array.get(row, c)).floatValue();
                        if (v != 0) {
                            idx[k] = c;
                            val[k++] = v;
                        }
                    }
                    b.addRow(java.util.Arrays.copyOf(idx, k), java.util.Arrays.copyOf(val, k));
                }
                return b.build();
            }
            long[] shape = (long[]) h.getByPath("/X").getAttribute("shape").getData();
            long[] ptr = longs(h.getDatasetByPath("/X/indptr").getData());
            long[] idx = longs(h.getDatasetByPath("/X/indices").getData());
            Object data = h.getDatasetByPath("/X/data").getData();
            boolean csc = "csc_matrix"
                    .equals(h.getByPath("/X").getAttribute("encoding-type").getData());
            int rows = (int) shape[0];
            int cols = (int) shape[1];
            float[][] dense = new float[rows][cols];
            for (int major = 0; major + 1 < ptr.length; major++) {
                for (long k = ptr[major]; k < ptr[major + 1]; k++) {
                    float v = ((Number) Array.get(data, (int) k)).floatValue();
                    if (csc) {
                        dense[(int) idx[(int) k]][major] = v;
                    } else {
                        dense[major][(int) idx[(int) k]] = v;
                    }
                }
            }
            CsrMatrix.Builder b = CsrMatrix.builder(cols);
            for (float[] row : dense) {
                int[] i = new int[cols];
                float[] v = new float[cols];
                int k = 0;
                for (int c = 0; c < cols; c++) {
                    if (row[c] != 0) {
                        i[k] = c;
                        v[k++] = row[c];
                    }
                }
                b.addRow(java.util.Arrays.copyOf(i, k), java.util.Arrays.copyOf(v, k));
            }
            return b.build();
        }
    }

    private static long[] longs(Object array) {
        long[] out = new long[Array.getLength(array)];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) Array.get(array, i)).longValue();
        }
        return out;
    }

    private static final java.util.Map<String, CsrMatrix> EXPECTED = new java.util.concurrent.ConcurrentHashMap<>();

    abstract static class Layout extends BlockSourceContract {

        abstract String fixture();

        @Override
        protected BlockSource source() {
            return H5ad.openMatrix(Fixtures.path(fixture()), "/X", isolated());
        }

        @Override
        protected CsrMatrix expected() {
            return EXPECTED.computeIfAbsent(fixture(), f -> viaJhdf(Fixtures.path(f)));
        }
    }

    @Nested
    class CsrContiguous extends Layout {
        String fixture() {
            return "x-csr-contiguous.h5ad";
        }
    }

    @Nested
    class CsrChunkedUncompressed extends Layout {
        String fixture() {
            return "x-csr-anndata08.h5ad";
        }
    }

    @Nested
    class CsrGzipShuffleInt64 extends Layout {
        String fixture() {
            return "synth-3k.int64.h5ad";
        }
    }

    @Nested
    class CscGzip extends Layout {
        String fixture() {
            return "synth-3k.csc-gzip.h5ad";
        }
    }

    @Nested
    class DenseLzf extends Layout {
        String fixture() {
            return "x-dense-lzf.h5ad";
        }
    }

    @Nested
    class DenseFloat64Contiguous extends Layout {
        String fixture() {
            return "x-dense-f64-contiguous.h5ad";
        }
    }

    @Nested
    class EmptyRowsUnsigned extends Layout {
        String fixture() {
            return "x-empty-rows-u16.h5ad";
        }
    }
}
