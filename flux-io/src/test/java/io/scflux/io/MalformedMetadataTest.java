/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.dataset.ContiguousDataset;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Files broken in one place each (malformed/*.h5ad: anndata 0.8 wrote base.h5ad, h5py broke a copy) give a
 * ScfluxFormatException naming the file, the HDF5 path and what was expected.
 */
class MalformedMetadataTest {

    @Test
    void theUnbrokenBaseReads() {
        AnnData data = H5ad.read(Fixtures.path("malformed/base.h5ad"));
        assertEquals(10, data.nObs());
        assertEquals(4, data.nVars());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "missing-encoding   | /obs/n_genes          | missing attribute 'encoding-type'",
                "codes-out-of-range | /obs/cell_type/codes  | code 7 at row 5 is outside [-1, 3)",
                "column-length      | /obs/n_genes          | expected 10 values (one per index entry), found 9",
                "no-index           | /obs                  | missing index dataset '_index'",
                "codes-dtype        | /obs/cell_type/codes  | expected signed integer codes (int8, int16, int32 or int64), found float64",
                "unknown-encoding   | /obs/n_genes          | unknown column encoding-type 'fancy-array'",
                "missing-column     | /obs                  | column 'ghost' named in column-order is missing",
                "obsm-rows          | /obsm/X_pca           | obsm/X_pca has 9 rows, expected 10",
            })
    void brokenMetadata(String name, String path, String problem) {
        ScfluxFormatException e = assertThrows(
                ScfluxFormatException.class, () -> H5ad.read(Fixtures.path("malformed/" + name + ".h5ad")));
        assertTrue(e.file().endsWith(name + ".h5ad"), e.file());
        assertEquals(path, e.path(), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    @Test
    void truncatedFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("cut.h5ad");
        byte[] whole = Files.readAllBytes(Fixtures.path("rich.anndata08.h5ad"));
        Files.write(file, Arrays.copyOf(whole, whole.length / 2));
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> H5ad.read(file));
        assertTrue(e.getMessage().contains("not an HDF5 file or truncated"), e.getMessage());
        assertEquals(file.toString(), e.file());
    }

    /**
     * A string reference's length field patched in a written file: past the memory budget the read is refused before
     * allocating, naming file and path; longer than its heap object, the object's bytes are what is read.
     */
    @Test
    void stringReferencesDeclaringMoreBytesThanTheirObjects(@TempDir Path dir) throws IOException {
        String[] cells = {"cell-ä", "cell-b", "cell-c"};
        Path file = dir.resolve("names.h5ad");
        H5ad.write(
                        new AnnData(
                                CsrMatrix.of(1, new long[4], new int[0], new float[0]),
                                new Frame(cells),
                                new Frame(new String[] {"g"})),
                        file)
                .block();
        long address;
        try (HdfFile hdf = new HdfFile(file)) {
            address = ((ContiguousDataset) hdf.getDatasetByPath("/obs/_index")).getDataAddress();
        }
        byte[] original = Files.readAllBytes(file);

        Path longer = dir.resolve("longer.h5ad");
        Files.write(longer, patchInt(original, address, 1000));
        assertArrayEquals(cells, H5ad.read(longer).obs().index());

        Path huge = dir.resolve("huge.h5ad");
        // two references of 2^31 - 101 bytes: more than one array can hold, whatever the budget
        Files.write(
                huge,
                patchInt(patchInt(original, address, Integer.MAX_VALUE - 100), address + 16, Integer.MAX_VALUE - 100));
        MemoryBudgetExceededException e = assertThrows(MemoryBudgetExceededException.class, () -> H5ad.read(huge));
        assertTrue(e.getMessage().startsWith(huge + ": /obs/_index: the bytes of 3 strings"), e.getMessage());
    }

    /** {@code bytes} with the little-endian int at {@code at} set to {@code value}. */
    private static byte[] patchInt(byte[] bytes, long at, int value) {
        byte[] out = bytes.clone();
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).putInt(Math.toIntExact(at), value);
        return out;
    }

    @Test
    void notHdf5(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("notes.h5ad");
        Files.writeString(file, "cell,gene,count\n");
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> H5ad.read(file));
        assertTrue(e.getMessage().contains("not an HDF5 file or truncated"), e.getMessage());
        assertEquals(file.toString(), e.file());
    }
}
