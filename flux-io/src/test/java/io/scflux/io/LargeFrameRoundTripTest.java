/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.DType;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Frames longer than one slice of the writer and of the reader: computed columns are written a slice of
 * {@link NativeHdf5#SLICE_ELEMENTS} values at a time, a string index is decoded a slice of references at a time, and
 * both read back whole and in order.
 */
class LargeFrameRoundTripTest {

    /** Two and a half slices of each. */
    private static final int CELLS = 2 * NativeHdf5.SLICE_ELEMENTS + NativeHdf5.SLICE_ELEMENTS / 2 + 1;

    @TempDir
    Path dir;

    private static String name(int i) {
        // lengths vary, some names are not ASCII and one is empty
        return i == 70_000 ? "" : (i % 7 == 0 ? "zelle-ä-" : "cell-") + i + "-" + "x".repeat(i % 13);
    }

    @ParameterizedTest
    @EnumSource(WriteOptions.Compression.class)
    void computedColumnsAndALongIndexReadBackAsTheyWereMade(WriteOptions.Compression compression) {
        String[] names = new String[CELLS];
        for (int i = 0; i < CELLS; i++) {
            names[i] = name(i);
        }
        Frame obs = new Frame(names);
        obs.put("log1p_rank", ArrayColumn.computed(DType.FLOAT32, CELLS, i -> Math.log1p(i)));
        obs.put("third", ArrayColumn.computed(DType.FLOAT64, CELLS, i -> i / 3.0));
        AnnData data = new AnnData(
                CsrMatrix.of(1, new long[CELLS + 1], new int[0], new float[0]), obs, new Frame(new String[] {"g"}));
        Path file = dir.resolve(compression + ".h5ad");
        H5ad.write(data, file, WriteOptions.DEFAULT.withCompression(compression))
                .block();

        AnnData back = H5ad.read(file);
        assertArrayEquals(names, back.obs().index());
        float[] log1p = new float[CELLS];
        double[] third = new double[CELLS];
        for (int i = 0; i < CELLS; i++) {
            log1p[i] = (float) Math.log1p(i);
            third[i] = i / 3.0;
        }
        ArrayColumn readLog1p = (ArrayColumn) back.obs().column("log1p_rank");
        assertEquals(DType.FLOAT32, readLog1p.dtype());
        assertArrayEquals(log1p, (float[]) readLog1p.values().data());
        assertArrayEquals(third, (double[])
                ((ArrayColumn) back.obs().column("third")).values().data());
    }
}
