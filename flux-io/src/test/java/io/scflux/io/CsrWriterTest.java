/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static io.scflux.io.H5adWriterInteropTest.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Execution;
import io.scflux.core.ForwardingSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
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
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** Streaming of matrices: the int32 or int64 index type, demand, and what h5py finds in the three datasets. */
class CsrWriterTest {

    private static final String READ_CSR = """
            import sys, json, h5py
            g = h5py.File(sys.argv[1], "r")["X"]
            print(json.dumps({k: {"dtype": str(g[k].dtype), "value": g[k][()].tolist()}
                              for k in ("data", "indices", "indptr")}))
            """;

    @TempDir
    Path dir;

    /** Row r holds (r % 7) + 1 entries in columns r % 3, r % 3 + 1, ..., valued r + k / 4. */
    private static final int ROWS = 40;

    private static final int COLS = 9;

    private static CsrMatrix staircase(List<Double> indptr, List<Double> indices, List<Double> data) {
        CsrMatrix.Builder b = CsrMatrix.builder(COLS);
        indptr.add(0.0);
        long nnz = 0;
        for (int r = 0; r < ROWS; r++) {
            int n = r % 7 + 1;
            int[] idx = new int[n];
            float[] val = new float[n];
            for (int k = 0; k < n; k++) {
                idx[k] = r % 3 + k;
                val[k] = r + k / 4f;
                indices.add((double) idx[k]);
                data.add((double) val[k]);
            }
            b.addRow(idx, val);
            nnz += n;
            indptr.add((double) nnz);
        }
        return b.build();
    }

    @ParameterizedTest
    @EnumSource(WriteOptions.Compression.class)
    void entriesPastTheLimitMakeIndicesAndIndptrInt64(WriteOptions.Compression c) throws Exception {
        PythonProbe.assumeModule("h5py");
        List<Double> indptr = new ArrayList<>();
        List<Double> indices = new ArrayList<>();
        List<Double> data = new ArrayList<>();
        CsrMatrix m = staircase(indptr, indices, data);
        Path file = dir.resolve("wide.h5ad");
        // about 16 blocks of at most 10 entries; the plan's 160 entries pass the limit
        H5adWriter.write(
                        AnnData.of(m),
                        file,
                        WriteOptions.DEFAULT.withCompression(c).withPlan(PlanTarget.ofChunkNnz(10)),
                        70)
                .block();

        Map<String, Object> h5 = PythonProbe.json(READ_CSR, file);
        assertEquals("int64", map(h5, "indptr").get("dtype"));
        assertEquals("int64", map(h5, "indices").get("dtype"));
        assertEquals("float32", map(h5, "data").get("dtype"));
        assertEquals(indptr, map(h5, "indptr").get("value"));
        assertEquals(indices, map(h5, "indices").get("value"));
        assertEquals(data, map(h5, "data").get("value"));
    }

    /** Sums the stored bytes of every dataset (h5py) and reads X back with anndata, as plain JSON. */
    private static final String MEASURE = """
            import sys, json, warnings
            warnings.simplefilter("ignore")
            import h5py, anndata, numpy as np
            stored = []
            def add(name, o):
                if isinstance(o, h5py.Dataset):
                    stored.append(o.id.get_storage_size())
            with h5py.File(sys.argv[1], "r") as f:
                f.visititems(add)
                types = {k: str(f["X"][k].dtype) for k in ("indices", "indptr")}
            x = anndata.read_h5ad(sys.argv[1]).X
            print(json.dumps({"stored": sum(stored), "types": types,
                              "shape": list(x.shape), "nnz": int(x.nnz), "data": float(x.data.sum(dtype=np.float64)),
                              "indices": int(x.indices.sum(dtype=np.int64)), "indptr": x.indptr[-100:].tolist()}))
            """;

    private static final int BIG_ROWS = 1536;
    private static final int BIG_ROW_NNZ = 2048;

    /**
     * 1536 rows of 2048 entries in 2049 columns, row r in columns [r % 2, r % 2 + 2048), valued r % 97 + 1: 12
     * chunks of data and indices exactly and one of indptr, none partly filled, and few names beside 36 MB of X.
     */
    private static CsrMatrix evenRows() {
        CsrMatrix.Builder b = CsrMatrix.builder(BIG_ROW_NNZ + 1);
        int[] idx = new int[BIG_ROW_NNZ];
        float[] val = new float[BIG_ROW_NNZ];
        for (int r = 0; r < BIG_ROWS; r++) {
            for (int k = 0; k < BIG_ROW_NNZ; k++) {
                idx[k] = k + r % 2;
                val[k] = r % 97 + 1;
            }
            b.addRow(idx, val);
        }
        return b.build();
    }

    /**
     * The limit is one below the entries, so only the last block passes it: copying the indices to int64 there, as
     * the writer once did, left 14 % of the file dead (43.2 MB for 37.8 MB of datasets).
     */
    @Test
    void entriesPastTheLimitWriteInt64IndicesFromTheStartAndLeaveNoDeadSpace() throws Exception {
        CsrMatrix m = evenRows();
        long nnz = m.nnz();
        Path file = dir.resolve("big.h5ad");
        H5adWriter.write(AnnData.of(m), file, WriteOptions.DEFAULT, nnz - 1).block();

        long datasets = nnz * (4 + 8) + (m.nRows() + 1) * 8L;
        long size = Files.size(file);
        assertTrue(size <= datasets * 1.01, "file of " + size + " bytes for " + datasets + " bytes of X");
        Fixtures.assertSameMatrix(m, Fixtures.collect(H5ad.read(file).x(), PlanTarget.DEFAULT, 1));

        PythonProbe.assumeModule("anndata");
        Map<String, Object> py = PythonProbe.json(MEASURE, file);
        double stored = ((Number) py.get("stored")).doubleValue();
        assertTrue(size <= stored * 1.01, "file of " + size + " bytes for " + stored + " bytes stored");
        assertEquals(Map.of("indices", "int64", "indptr", "int64"), py.get("types"));
        assertEquals(List.of((double) BIG_ROWS, BIG_ROW_NNZ + 1.0), py.get("shape"));
        assertEquals((double) nnz, py.get("nnz"));
        double sum = 0;
        for (int r = 0; r < BIG_ROWS; r++) {
            sum += (double) BIG_ROW_NNZ * (r % 97 + 1);
        }
        assertEquals(sum, py.get("data"));
        assertEquals(
                BIG_ROWS * (BIG_ROW_NNZ - 1.0) * BIG_ROW_NNZ / 2 + BIG_ROWS / 2.0 * BIG_ROW_NNZ, py.get("indices"));
        List<Double> tail = new ArrayList<>();
        for (long r = BIG_ROWS - 99; r <= BIG_ROWS; r++) {
            tail.add((double) BIG_ROW_NNZ * r);
        }
        assertEquals(tail, py.get("indptr"));
    }

    @Test
    void blocksPastTheEntriesTheirPlanPromisedFailRatherThanOverflowInt32Indices() throws Exception {
        CsrMatrix m = staircase(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        BlockSource underCounted = new ForwardingSource(m) {
            @Override
            public BlockPlan plan(PlanTarget target) {
                return BlockPlan.uniform(ROWS, 4, 1, target);
            }
        };
        Path file = dir.resolve("under.h5ad");
        StepVerifier.create(H5adWriter.write(AnnData.of(underCounted), file, WriteOptions.DEFAULT, 70))
                .expectErrorSatisfies(e -> assertTrue(
                        e.getMessage().startsWith("/X: block ")
                                && e.getMessage()
                                        .endsWith("past the 40 its source planned and the int32 indices chosen "
                                                + "for them"),
                        e.getMessage()))
                .verify();
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void indicesStayInt32BelowTheLimit() throws Exception {
        PythonProbe.assumeModule("h5py");
        List<Double> indptr = new ArrayList<>();
        List<Double> indices = new ArrayList<>();
        CsrMatrix m = staircase(indptr, indices, new ArrayList<>());
        Path file = dir.resolve("narrow.h5ad");
        H5adWriter.write(
                        AnnData.of(m),
                        file,
                        WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(10)),
                        indptr.get(ROWS).longValue())
                .block();
        Map<String, Object> h5 = PythonProbe.json(READ_CSR, file);
        assertEquals("int32", map(h5, "indptr").get("dtype"));
        assertEquals("int32", map(h5, "indices").get("dtype"));
        assertEquals(indptr, map(h5, "indptr").get("value"));
        assertEquals(indices, map(h5, "indices").get("value"));
    }

    @Test
    void aDimensionPastTheLimitStartsWithInt64() throws Exception {
        PythonProbe.assumeModule("h5py");
        List<Double> indptr = new ArrayList<>();
        CsrMatrix m = staircase(indptr, new ArrayList<>(), new ArrayList<>());
        Path file = dir.resolve("cols.h5ad");
        H5adWriter.write(AnnData.of(m), file, WriteOptions.DEFAULT, COLS - 1).block();
        Map<String, Object> h5 = PythonProbe.json(READ_CSR, file);
        assertEquals("int64", map(h5, "indptr").get("dtype"));
        assertEquals("int64", map(h5, "indices").get("dtype"));
        assertEquals(indptr, map(h5, "indptr").get("value"));
    }

    @Test
    void writesToTwoFilesAtOnceShareTheHdf5ThreadWithoutMixing() {
        CsrMatrix a = Matrices.random(500, 40, 0.2, 1);
        CsrMatrix b = Matrices.random(700, 30, 0.3, 2).withDtype(DType.FLOAT64);
        Path fa = dir.resolve("a.h5ad");
        Path fb = dir.resolve("b.h5ad");
        WriteOptions options =
                WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(50)).withExecution(Execution.threads(2));
        Mono.when(H5ad.write(AnnData.of(a), fa, options), H5ad.write(AnnData.of(b), fb, options))
                .block();
        Fixtures.assertSameMatrix(a, Fixtures.collect(H5ad.read(fa).x(), PlanTarget.DEFAULT, 1));
        Fixtures.assertSameMatrix(b, Fixtures.collect(H5ad.read(fb).x(), PlanTarget.DEFAULT, 1));
        assertEquals(DType.FLOAT64, H5ad.read(fb).x().dtype());
    }

    @Test
    void blocksAreRequestedAFewAtATime() {
        CsrMatrix.Builder b = CsrMatrix.builder(50);
        for (int r = 0; r < 3000; r++) {
            b.addRow(new int[] {r % 50}, new float[] {r});
        }
        for (Execution e : List.of(Execution.sequential(), Execution.threads(4))) {
            ScriptedSource source = new ScriptedSource(b.build(), i -> {});
            Path file = dir.resolve("lazy-" + e.threads() + ".h5ad");
            StepVerifier.create(H5ad.write(
                            AnnData.of(source),
                            file,
                            WriteOptions.DEFAULT
                                    .withPlan(PlanTarget.ofChunkNnz(10))
                                    .withExecution(e)))
                    .verifyComplete();
            assertEquals(300, source.delivered());
            assertTrue(
                    source.maxRequestedAhead() >= 1 && source.maxRequestedAhead() <= MatrixWriter.PREFETCH,
                    "the writer asked for " + source.maxRequestedAhead() + " blocks ahead of those it got");
            assertTrue(Files.isRegularFile(file));
        }
    }

    /** About 600,000 entries: past two chunks of 2^18 elements, the last one partly filled. */
    private static final CsrMatrix SEVERAL_CHUNKS = Matrices.random(3_001, 400, 0.5, 3);

    private Path writeSeveralChunks(WriteOptions.Compression c, DType type, long indexLimit) {
        assertTrue(
                SEVERAL_CHUNKS.nnz() > 2 * WriteLayout.MAX_CHUNK && SEVERAL_CHUNKS.nnz() % WriteLayout.MAX_CHUNK != 0);
        Path file = dir.resolve(c + "-" + type.numpyName() + "-" + indexLimit + ".h5ad");
        H5adWriter.write(
                        AnnData.of(SEVERAL_CHUNKS.withDtype(type)),
                        file,
                        WriteOptions.DEFAULT.withCompression(c).withPlan(PlanTarget.ofChunkNnz(7_919)),
                        indexLimit)
                .block();
        return file;
    }

    /**
     * Datasets past one chunk, gathered into whole chunks when stored unfiltered: every element read back as
     * written, for float32 and float64 values and int32 and int64 indices, compressed or not.
     */
    @ParameterizedTest
    @EnumSource(WriteOptions.Compression.class)
    void datasetsOfSeveralChunksReadBackAsWritten(WriteOptions.Compression c) {
        for (DType type : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
            for (long limit : new long[] {WriteLayout.INT32_LIMIT, 1000}) {
                AnnData back = H5ad.read(writeSeveralChunks(c, type, limit));
                assertEquals(type, back.x().dtype());
                Matrices.assertSame(SEVERAL_CHUNKS, Fixtures.collect(back.x(), PlanTarget.DEFAULT, 2));
            }
        }
    }

    /** h5py reads the same chunks: index types, the last row pointer, and the sum of the indices. */
    @ParameterizedTest
    @EnumSource(WriteOptions.Compression.class)
    void h5pyReadsDatasetsOfSeveralChunks(WriteOptions.Compression c) throws Exception {
        PythonProbe.assumeModule("h5py");
        long indexSum = 0;
        for (var b : SEVERAL_CHUNKS.blocks().toIterable()) {
            for (int k = 0; k < b.nnz(); k++) {
                indexSum += b.indices()[k];
            }
        }
        for (long limit : new long[] {WriteLayout.INT32_LIMIT, 1000}) {
            Map<String, Object> h5 = PythonProbe.json(SUMS, writeSeveralChunks(c, DType.FLOAT32, limit));
            assertEquals(limit == 1000 ? "int64" : "int32", h5.get("indices"));
            assertEquals((double) SEVERAL_CHUNKS.nnz(), h5.get("last"));
            assertEquals((double) indexSum, h5.get("index_sum"));
        }
    }

    private static final String SUMS = """
            import sys, json, h5py, numpy as np
            g = h5py.File(sys.argv[1], "r")["X"]
            print(json.dumps({"indices": str(g["indices"].dtype), "last": float(g["indptr"][-1]),
                              "index_sum": float(np.sum(g["indices"][()], dtype=np.int64))}))
            """;
}
