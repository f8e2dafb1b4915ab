/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Settings;
import io.scflux.core.anndata.CsrMatrix;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every stored layout of X streams the same rows: checked against numpy's numbers and across layouts. */
class FileMatrixTest {

    @TempDir
    static Path cache;

    /** The settings whose cache folder keeps this class's transposed stores apart. */
    static Settings isolated() {
        return Settings.DEFAULT.withCacheDir(cache);
    }

    private static FileMatrix x(String fixture) {
        return H5ad.openMatrix(Fixtures.path(fixture), "/X", isolated());
    }

    @ParameterizedTest
    @ValueSource(strings = {"x-csr-contiguous.h5ad", "x-csr-anndata08.h5ad", "x-dense-lzf.h5ad"})
    void rowsMatchNumpy(String fixture) {
        JsonNode facts = Fixtures.variants();
        FileMatrix m = x(fixture);
        assertEquals(facts.get("n_obs").asLong(), m.nRows());
        assertEquals(facts.get("n_vars").asInt(), m.nCols());
        CsrMatrix all = Fixtures.collect(m, new PlanTarget(3000, 7), 1);
        assertEquals(facts.get("nnz").asLong(), all.nnz());
        assertEquals(facts.get("x_sum").asDouble(), Fixtures.sum(all));
        for (int r = 0; r < all.nRows(); r++) {
            assertEquals(facts.get("row_nnz").get(r).asLong(), all.indptr(r + 1) - all.indptr(r), "nnz of row " + r);
            double s = 0;
            for (long k = all.indptr(r); k < all.indptr(r + 1); k++) {
                s += all.value(k);
            }
            assertEquals(facts.get("row_sums").get(r).asDouble(), s, "sum of row " + r);
        }
    }

    @Test
    void layoutsAgreeEntryForEntry() {
        CsrMatrix contiguous = Fixtures.collect(x("x-csr-contiguous.h5ad"), PlanTarget.DEFAULT, 1);
        Fixtures.assertSameMatrix(contiguous, Fixtures.collect(x("x-csr-anndata08.h5ad"), new PlanTarget(999, 3), 2));
        Fixtures.assertSameMatrix(contiguous, Fixtures.collect(x("x-dense-lzf.h5ad"), new PlanTarget(10_000, 64), 3));
    }

    @Test
    void int64IndicesAndCscGiveTheSameInt32Blocks() {
        FileMatrix int64 = x("synth-3k.int64.h5ad");
        FileMatrix csc = x("synth-3k.csc-gzip.h5ad");
        assertEquals(DType.INT64, int64.info().indptrDtype());
        assertEquals(DType.INT64, int64.info().indicesDtype());
        assertEquals("csc_matrix", csc.info().encoding());
        PlanTarget target = PlanTarget.ofChunkNnz(100_000);
        List<RowBlock> blocks = int64.blocks(int64.plan(target)).collectList().block();
        assertTrue(blocks.size() > 10, "several blocks");
        long rows = 0;
        for (int i = 0; i < blocks.size(); i++) {
            RowBlock b = blocks.get(i);
            assertEquals(i, b.blockIndex());
            assertEquals(rows, b.rowStart());
            assertTrue(b.nnz() <= 100_000 + 2000, "block within target (one row may exceed it)");
            for (int c : b.indices()) {
                assertTrue(c >= 0 && c < 2000);
            }
            rows += b.nRows();
        }
        assertEquals(3000, rows);
        CsrMatrix fromInt64 = Fixtures.collect(int64, target, 2);
        assertEquals(Fixtures.SYNTH3K_NNZ, fromInt64.nnz());
        assertEquals(Fixtures.SYNTH3K_SUM, Fixtures.sum(fromInt64));
        Fixtures.assertSameMatrix(fromInt64, Fixtures.collect(csc, PlanTarget.DEFAULT, 1));
    }

    @Test
    void denseKeepsNanAndNegativeEntries() {
        JsonNode facts = Fixtures.variants();
        FileMatrix m = x("x-dense-f64-contiguous.h5ad");
        assertEquals(DType.FLOAT64, m.info().dtype());
        CsrMatrix all = Fixtures.collect(m, new PlanTarget(5000, 1000), 1);
        assertEquals(facts.get("dense_f64_nnz").asLong(), all.nnz());
        double nansum = 0;
        for (long k = 0; k < all.nnz(); k++) {
            nansum += Float.isNaN(all.value(k)) ? 0 : all.value(k);
        }
        assertEquals(facts.get("dense_f64_nansum").asDouble(), nansum);
        assertEquals(5, all.index(0));
        assertTrue(Float.isNaN(all.value(0)));
        boolean found = false;
        for (long k = all.indptr(1); k < all.indptr(2); k++) {
            found |= all.index(k) == 7 && all.value(k) == -2.5f;
        }
        assertTrue(found, "row 1 keeps -2.5 at column 7");
    }

    @Test
    void emptyRowsAndUnsignedCounts() {
        JsonNode facts = Fixtures.variants();
        FileMatrix m = x("x-empty-rows-u16.h5ad");
        assertEquals(DType.UINT16, m.info().dtype());
        assertTrue(m.info().chunked());
        CsrMatrix all = Fixtures.collect(m, new PlanTarget(777, 5), 2);
        assertEquals(facts.get("empty_rows_nnz").asLong(), all.nnz());
        assertEquals(facts.get("empty_rows_sum").asDouble(), Fixtures.sum(all));
        for (JsonNode r : facts.get("empty_rows")) {
            assertEquals(0, all.indptr(r.asLong() + 1) - all.indptr(r.asLong()), "row " + r + " is empty");
        }
    }

    /** indptr is read a piece at a time while planning; the plan is the one of the whole indptr at once. */
    @Test
    void aPlanReadInPiecesIsThePlanOfTheWholeIndptr(@TempDir Path dir) {
        int rows = 100_003;
        long[] indptr = new long[rows + 1];
        for (int r = 0; r < rows; r++) {
            indptr[r + 1] = indptr[r] + (r * 7919L) % 5;
        }
        int nnz = (int) indptr[rows];
        int[] indices = new int[nnz];
        for (int r = 0; r < rows; r++) {
            for (long k = indptr[r]; k < indptr[r + 1]; k++) {
                indices[(int) k] = (int) (k - indptr[r]);
            }
        }
        Path file = dir.resolve("long.h5ad");
        H5ad.write(io.scflux.core.anndata.AnnData.of(CsrMatrix.of(5, indptr, indices, new float[nnz])), file)
                .block();
        PlanTarget target = new PlanTarget(1000, 300);
        BlockPlan read = H5ad.openMatrix(file, "/X").plan(target);
        BlockPlan whole = BlockPlan.ofIndptr(indptr, target);
        assertEquals(whole.size(), read.size());
        for (int b = 0; b < whole.size(); b++) {
            assertEquals(whole.rowStart(b), read.rowStart(b), "block " + b);
            assertEquals(whole.nnzStart(b), read.nnzStart(b), "block " + b);
        }
        assertEquals(whole.totalRows(), read.totalRows());
        assertEquals(whole.totalNnz(), read.totalNnz());
    }

    @Test
    void degenerateShapes() {
        FileMatrix none = x("x-no-entries.h5ad");
        BlockPlan plan = none.plan();
        assertEquals(1, plan.size());
        RowBlock only = none.blocks(plan).single().block();
        assertEquals(40, only.nRows());
        assertEquals(0, only.nnz());
        FileMatrix noRows = x("x-no-rows.h5ad");
        assertEquals(0, noRows.plan().size());
        assertEquals(0L, noRows.blocks().count().block());
    }

    @Test
    void infoDescribesTheStorage() {
        MatrixInfo csr = x("x-csr-anndata08.h5ad").info();
        assertEquals(
                new MatrixInfo(
                        "csr_matrix",
                        DType.FLOAT32,
                        100,
                        2000,
                        Fixtures.variants().get("nnz").asLong(),
                        DType.INT32,
                        DType.INT32,
                        "none",
                        true),
                csr);
        MatrixInfo gz = x("synth-3k.int64.h5ad").info();
        assertEquals("gzip+shuffle", gz.compression());
        assertEquals(Fixtures.SYNTH3K_NNZ, gz.nnz());
        MatrixInfo dense = x("x-dense-lzf.h5ad").info();
        assertEquals("array", dense.encoding());
        assertEquals("lzf", dense.compression());
        assertEquals(100L * 2000, dense.nnz());
        assertEquals("gzip", x("synth-3k.csc-gzip.h5ad").info().compression());
    }

    /**
     * A read on a thread left interrupted (Reactor's dispose of a finished task can interrupt the pooled thread that
     * runs the next one) closes a file channel; the reader opens it again and reads on, for this read and the others.
     */
    @Test
    void aReadOnAnInterruptedThreadOpensTheFileAgainAndReadsOn() {
        FileMatrix m = x("x-csr-contiguous.h5ad");
        BlockPlan plan = m.plan(new PlanTarget(999, 3));
        CsrMatrix expected = Fixtures.collect(m, new PlanTarget(999, 3), 1);
        List<RowBlock> read = new java.util.ArrayList<>();
        try (var reader = m.open()) {
            for (int b = 0; b < plan.size(); b++) {
                Thread.currentThread().interrupt();
                try {
                    read.add(reader.read(b, plan.rowStart(b), plan.rowEnd(b)));
                } finally {
                    Thread.interrupted();
                }
            }
        }
        CsrMatrix.Builder all = CsrMatrix.builder(m.nCols());
        read.forEach(all::add);
        Fixtures.assertSameMatrix(expected, all.build());
    }
}
