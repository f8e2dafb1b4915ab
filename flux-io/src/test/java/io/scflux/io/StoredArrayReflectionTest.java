/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.scflux.io.hdf5.StoredArray;
import org.junit.jupiter.api.Test;

/**
 * StoredArray reaches two private members of jhdf (a chunked dataset's chunk lookup and its layout message) to read
 * chunk indexes itself; without them it falls back, silently, to reading every chunk through jhdf, several times
 * slower. This test makes that loud: it fails when a jhdf upgrade removes or renames them.
 */
class StoredArrayReflectionTest {

    @Test
    void jhdfsPrivateChunkIndexIsReached() {
        assertTrue(
                StoredArray.readsChunkIndexItself(),
                "jhdf's ChunkedDatasetBase.getChunkLookup or "
                        + "ChunkedDatasetV3.layoutMessage is gone: adapt StoredArray.chunks to this jhdf version");
    }

    @Test
    void aChunkedGzipMatrixIsReadWithoutJhdf() {
        try (HdfFile hdf = new HdfFile(Fixtures.path("synth-3k.csc-gzip.h5ad"))) {
            Dataset data = hdf.getDatasetByPath("/X/data");
            StoredArray array = StoredArray.of(data, hdf.size());
            assertTrue(array.isChunked(), "the fixture's X is chunked");
            assertFalse(array.readsChunksThroughJhdf(), "gzip chunks are read by scflux's own codec path");
        }
    }
}
