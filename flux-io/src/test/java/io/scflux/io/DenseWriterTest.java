/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static io.scflux.io.H5adWriterInteropTest.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.StagedSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.test.StepVerifier;

/** A source that says its data are dense is written as anndata writes a numpy array: a 2-D {@code array}. */
class DenseWriterTest {

    /** The X dataset as h5py sees it, and X as anndata reads it. */
    private static final String READ_X = """
            import sys, json, warnings
            warnings.simplefilter("ignore")
            import anndata, h5py, numpy as np
            d = h5py.File(sys.argv[1], "r")["X"]
            h5 = {"attrs": {k: str(v) for k, v in d.attrs.items()}, "dtype": str(d.dtype), "shape": list(d.shape),
                  "chunks": list(d.chunks), "maxshape": [-1 if m is None else m for m in d.maxshape],
                  "compression": d.compression}
            a = anndata.read_h5ad(sys.argv[1])
            print(json.dumps({"h5py": h5, "type": type(a.X).__name__, "dtype": str(a.X.dtype),
                              "X": a.X.tolist()}))
            """;

    /**
     * Whether anndata reads X of the second file as the array h5py finds in the first file's /X, to float32
     * precision: blocks carry float32 values, so float64 data come back rounded to float32 (stored as float64).
     */
    private static final String SAME_X = """
            import sys, json, warnings
            warnings.simplefilter("ignore")
            import anndata, h5py, numpy as np
            a, b = h5py.File(sys.argv[1], "r")["X"][()], anndata.read_h5ad(sys.argv[2]).X
            print(json.dumps({"types": [type(a).__name__, type(b).__name__], "dtypes": [str(a.dtype), str(b.dtype)],
                              "equal": bool(np.array_equal(a.astype(np.float32), b, equal_nan=True))}))
            """;

    private static final int ROWS = 37;
    private static final int COLS = 11;

    @TempDir
    Path dir;

    /** Sparse counts whose rows a stage fills: entry (r, c) becomes value + 1 - c / 4 (exact in float32). */
    private static BlockSource filled(BlockSource counts, DType dtype) {
        return StagedSource.densifying(
                counts,
                block -> {
                    int rows = block.nRows();
                    int[] indptr = new int[rows + 1];
                    int[] indices = new int[rows * COLS];
                    float[] values = new float[rows * COLS];
                    for (int r = 0; r < rows; r++) {
                        indptr[r + 1] = (r + 1) * COLS;
                        for (int c = 0; c < COLS; c++) {
                            indices[r * COLS + c] = c;
                            values[r * COLS + c] = 1 - c / 4f;
                        }
                        for (int k = block.indptr()[r]; k < block.indptr()[r + 1]; k++) {
                            values[r * COLS + block.indices()[k]] += block.values()[k];
                        }
                    }
                    return RowBlock.of(block.blockIndex(), block.rowStart(), COLS, indptr, indices, values);
                },
                COLS,
                dtype);
    }

    /** What {@link #filled} yields, computed here from the counts. */
    private static List<List<Double>> expected(CsrMatrix counts) {
        List<List<Double>> rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            double[] row = new double[COLS];
            for (int c = 0; c < COLS; c++) {
                row[c] = 1 - c / 4.0;
            }
            for (long k = counts.indptr(r); k < counts.indptr(r + 1); k++) {
                row[counts.index(k)] += counts.value(k);
            }
            List<Double> l = new ArrayList<>();
            for (double v : row) {
                l.add(v);
            }
            rows.add(l);
        }
        return rows;
    }

    private static CsrMatrix counts() {
        CsrMatrix m = Matrices.random(ROWS, COLS, 0.3, 3);
        float[] v = new float[(int) m.nnz()];
        long[] indptr = new long[ROWS + 1];
        int[] idx = new int[v.length];
        for (int r = 0; r < ROWS; r++) {
            indptr[r + 1] = m.indptr(r + 1);
        }
        for (int k = 0; k < v.length; k++) {
            idx[k] = m.index(k);
            v[k] = Math.round(m.value(k) * 8) / 8f;
        }
        return CsrMatrix.of(COLS, indptr, idx, v);
    }

    @ParameterizedTest
    @EnumSource(WriteOptions.Compression.class)
    void anndataReadsAFilledSourceAsANumpyArrayOfItsDtype(WriteOptions.Compression c) throws Exception {
        PythonProbe.assumeModule("anndata");
        CsrMatrix counts = counts();
        for (DType dtype : List.of(DType.FLOAT64, DType.FLOAT32)) {
            Path file = dir.resolve(dtype + "-" + c + ".h5ad");
            // blocks of 2 rows (22 entries at most), decoded by 3 workers
            H5ad.write(
                            AnnData.of(filled(counts, dtype)),
                            file,
                            WriteOptions.DEFAULT
                                    .withCompression(c)
                                    .withPlan(PlanTarget.ofChunkNnz(22))
                                    .withExecution(Execution.threads(3)))
                    .block();

            Map<String, Object> seen = PythonProbe.json(READ_X, file);
            String numpy = dtype == DType.FLOAT64 ? "float64" : "float32";
            assertEquals("ndarray", seen.get("type"));
            assertEquals(numpy, seen.get("dtype"));
            assertEquals(expected(counts), seen.get("X"));
            Map<String, Object> h5 = map(seen, "h5py");
            assertEquals(Map.of("encoding-type", "array", "encoding-version", "0.2.0"), h5.get("attrs"));
            assertEquals(numpy, h5.get("dtype"));
            assertEquals(List.of((double) ROWS, (double) COLS), h5.get("shape"));
            assertEquals(List.of(-1.0, (double) COLS), h5.get("maxshape"));
            assertEquals(List.of((double) ROWS, (double) COLS), h5.get("chunks"), "whole rows per chunk");
            assertEquals(c == WriteOptions.Compression.GZIP ? "gzip" : null, h5.get("compression"));
        }
    }

    @Test
    void scfluxReadsItBackAsADenseMatrixWithTheSameEntries() {
        CsrMatrix counts = counts();
        Path file = dir.resolve("dense.h5ad");
        H5ad.write(
                        AnnData.of(filled(counts, DType.FLOAT64)),
                        file,
                        WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(50)))
                .block();
        FileMatrix x = (FileMatrix) H5ad.read(file).x();
        assertTrue(x.isDense());
        assertEquals(DType.FLOAT64, x.dtype());
        assertEquals("array", x.info().encoding());
        CsrMatrix back = Fixtures.collect(x, PlanTarget.DEFAULT, 2);
        List<List<Double>> expected = expected(counts);
        for (int r = 0; r < ROWS; r++) {
            double[] row = new double[COLS];
            for (long k = back.indptr(r); k < back.indptr(r + 1); k++) {
                row[back.index(k)] = back.value(k);
            }
            for (int col = 0; col < COLS; col++) {
                assertEquals(expected.get(r).get(col), row[col], "row " + r + " column " + col);
            }
        }
    }

    @Test
    void aDenseMatrixReadFromAFileIsWrittenBackDenseAndUnchanged() throws Exception {
        PythonProbe.assumeModule("anndata");
        for (String fixture : List.of("x-dense-lzf.h5ad", "x-dense-f64-contiguous.h5ad")) {
            Path rewritten = dir.resolve("re-" + fixture);
            H5ad.write(
                            AnnData.of(H5ad.openMatrix(Fixtures.path(fixture), "/X")),
                            rewritten,
                            WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(10_000)))
                    .block();
            Map<String, Object> seen = PythonProbe.json(SAME_X, Fixtures.path(fixture), rewritten);
            assertEquals(List.of("ndarray", "ndarray"), seen.get("types"), fixture);
            assertEquals(true, seen.get("equal"), fixture);
            assertEquals(((List<?>) seen.get("dtypes")).get(0), ((List<?>) seen.get("dtypes")).get(1), fixture);
        }
    }

    @Test
    void aFailingDenseSourceLeavesNoTargetAndNoTemporaryFile() throws IOException {
        Path target = dir.resolve("out.h5ad");
        ScriptedSource failing = new ScriptedSource(counts(), i -> {
            if (i == 3) {
                throw new IllegalStateException("no block 3");
            }
        });
        StepVerifier.create(H5ad.write(
                        AnnData.of(filled(failing, DType.FLOAT64)),
                        target,
                        WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(22))))
                .expectErrorMessage("no block 3")
                .verify();
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(), s.toList());
        }
    }
}
