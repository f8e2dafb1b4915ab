/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.core.StagedSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.test.CountingSource;
import io.scflux.core.test.Matrices;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dense matrix staged over X (X_pca over the normalized X) is written in the pass that writes X: one read of X,
 * each element as the stage makes it.
 */
class CompanionWriteTest {

    @TempDir
    Path dir;

    private static final CsrMatrix COUNTS = Matrices.random(2_000, 60, 0.2, 9);

    /** Each row's sums of its columns below 20 and from 20 on, as two dense columns: made from X's blocks. */
    private static final Stage HALVES = block -> {
        int rows = block.nRows();
        int[] indptr = new int[rows + 1];
        int[] indices = new int[2 * rows];
        float[] values = new float[2 * rows];
        for (int r = 0; r < rows; r++) {
            for (int k = block.indptr()[r]; k < block.indptr()[r + 1]; k++) {
                values[2 * r + (block.indices()[k] < 20 ? 0 : 1)] += block.values()[k];
            }
            indices[2 * r + 1] = 1;
            indptr[r + 1] = 2 * r + 2;
        }
        return RowBlock.of(block.blockIndex(), block.rowStart(), 2, indptr, indices, values);
    };

    @Test
    void aDenseMatrixStagedOverXIsWrittenInXsPass() {
        CountingSource x = CountingSource.of(COUNTS);
        AnnData data = AnnData.of(x);
        data.putObsm("halves", StagedSource.densifying(x, HALVES, 2, DType.FLOAT32));
        Path out = dir.resolve("companion.h5ad");
        H5ad.write(data, out, WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(997)))
                .block();
        assertEquals(1, x.opened.get(), "X read once for both");

        AnnData back = H5ad.read(out);
        Matrices.assertSame(COUNTS, Fixtures.collect(back.x(), PlanTarget.DEFAULT, 1));
        DenseArray halves = (DenseArray) back.obsm().get("halves");
        assertArrayEquals(new long[] {2_000, 2}, halves.shape());
        float[] expected = new float[2 * 2_000];
        for (RowBlock b : COUNTS.blocks().toIterable()) {
            RowBlock h = HALVES.apply(b);
            for (int r = 0; r < h.nRows(); r++) {
                expected[(int) (2 * (h.rowStart() + r))] = h.values()[2 * r];
                expected[(int) (2 * (h.rowStart() + r)) + 1] = h.values()[2 * r + 1];
            }
        }
        assertArrayEquals(expected, (float[]) halves.data());
    }

    @Test
    void onlyDenseMatricesStagedOverAnEarlierOneAreCompanions() {
        BlockSource x = COUNTS;
        BlockSource other = Matrices.random(2_000, 60, 0.2, 10);
        ElementWriter.Matrix mx = new ElementWriter.Matrix("/", "X", x);
        ElementWriter.Matrix dense =
                new ElementWriter.Matrix("/obsm", "d", StagedSource.densifying(x, HALVES, 2, DType.FLOAT32));
        ElementWriter.Matrix sparse = new ElementWriter.Matrix("/layers", "s", StagedSource.of(x, b -> b));
        ElementWriter.Matrix elsewhere =
                new ElementWriter.Matrix("/obsm", "e", StagedSource.densifying(other, HALVES, 2, DType.FLOAT32));
        List<ElementWriter.Matrix> grouped = ElementWriter.withCompanions(List.of(mx, dense, sparse, elsewhere));
        assertEquals(
                List.of("X", "s", "e"),
                grouped.stream().map(ElementWriter.Matrix::name).toList());
        assertEquals(List.of(dense), grouped.get(0).companions());
        assertTrue(grouped.get(1).companions().isEmpty()
                && grouped.get(2).companions().isEmpty());
    }
}
