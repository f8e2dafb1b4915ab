/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.MemoryAccount;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.Streaming;
import io.scflux.io.hdf5.ArrayReader;
import io.scflux.io.test.TestFixtures;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Files that declare far more than they store (chunked datasets with no chunk written; made by
 * src/test/python/make_huge_declared.py) are refused before anything is allocated, naming file and HDF5 path.
 */
class DeclaredSizeTest {

    @Test
    void declaredShapesThatOverflowOrAreNegativeCountAsTooMany() {
        assertEquals(Long.MAX_VALUE, ArrayReader.product(1L << 40, 1L << 40));
        assertEquals(Long.MAX_VALUE, ArrayReader.product(10, -1));
        assertEquals(0, ArrayReader.product(0, 1L << 62));
        assertEquals(6, ArrayReader.product(2, 3));
    }

    @Test
    void aHugeDeclaredObsmIsRefusedUpFront() {
        Path file = TestFixtures.path("huge-obsm.h5ad");
        MemoryBudgetExceededException e = assertThrows(MemoryBudgetExceededException.class, () -> H5ad.read(file));
        assertTrue(e.getMessage().startsWith(file + ": /obsm/X_huge: a float64 array of shape ["), e.getMessage());
        assertTrue(e.getMessage().contains("more than the memory budget"), e.getMessage());
    }

    @Test
    void aDenseRowLargerThanTheBudgetIsRefusedBeforeReading() {
        Path file = TestFixtures.path("huge-dense-x.h5ad");
        MemoryBudgetExceededException names = assertThrows(MemoryBudgetExceededException.class, () -> H5ad.read(file));
        assertTrue(names.getMessage().startsWith(file + ": /var/_index: "), names.getMessage());
        FileMatrix x = H5ad.openMatrix(file, "/X");
        MemoryAccount.useHostBudget(1024L << 20); // below the 4 GiB row whatever the test JVM's heap
        try {
            MemoryBudgetExceededException row = assertThrows(
                    MemoryBudgetExceededException.class,
                    () -> Streaming.DEFAULT.blocks(x).blockFirst());
            assertTrue(row.getMessage().startsWith(file + ": /X: rows 0..1 would need 4096.0 MiB"), row.getMessage());
        } finally {
            MemoryAccount.useHostBudget(0);
        }
    }
}
