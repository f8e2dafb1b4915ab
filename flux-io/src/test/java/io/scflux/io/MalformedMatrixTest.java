/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.scflux.core.ScfluxFormatException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Broken matrices (made by h5py in make_matrix_fixtures.py) fail with the file, the path and the expectation. */
@Timeout(30)
class MalformedMatrixTest {

    static Stream<Arguments> broken() {
        return Stream.of(
                Arguments.of("bad-indptr-float.h5ad", "/X/indptr: expected int32 or int64, found float64"),
                Arguments.of("bad-shape.h5ad", "/X/indptr: expected 10 row pointers for 9 rows (the shape), found 11"),
                Arguments.of(
                        "bad-no-encoding.h5ad",
                        "/X: expected a matrix: a group with encoding-type csr_matrix"
                                + " or csc_matrix, found a group without encoding-type"),
                Arguments.of("bad-nnz.h5ad", "/X/indptr: indptr[10] = "));
    }

    @ParameterizedTest
    @MethodSource("broken")
    void failsWhenOpened(String fixture, String message) {
        Path file = Fixtures.path(fixture);
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> H5ad.openMatrix(file, "/X"));
        assertEquals(file.toString(), e.file());
        String expected = file + ": " + message;
        if (!e.getMessage().startsWith(expected)) {
            assertEquals(expected, e.getMessage());
        }
    }

    @Test
    void nnzBeyondTheDataNamesBothLengths() {
        var facts = Fixtures.variants();
        Path file = Fixtures.path("bad-nnz.h5ad");
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> H5ad.openMatrix(file, "/X"));
        assertEquals("/X/indptr", e.path());
        org.junit.jupiter.api.Assertions.assertTrue(
                e.getMessage().endsWith("but the data hold " + sumOfFirstRows(facts, 10) + " entries"), e.getMessage());
    }

    private static long sumOfFirstRows(com.fasterxml.jackson.databind.JsonNode facts, int rows) {
        long n = 0;
        for (int r = 0; r < rows; r++) {
            n += facts.get("row_nnz").get(r).asLong();
        }
        return n;
    }

    @Test
    void missingElementAndMissingFile() {
        Path file = Fixtures.path("x-csr-contiguous.h5ad");
        ScfluxFormatException e =
                assertThrows(ScfluxFormatException.class, () -> H5ad.openMatrix(file, "/layers/counts"));
        assertEquals(
                file + ": /layers/counts: no such element",
                e.getMessage()
                        .substring(
                                0,
                                Math.min(
                                        e.getMessage().length(),
                                        (file + ": /layers/counts: no such element").length())));
        Path none = file.resolveSibling("does-not-exist.h5ad");
        assertEquals(
                none + ": /X: no such file",
                assertThrows(ScfluxFormatException.class, () -> H5ad.openMatrix(none, "/X"))
                        .getMessage());
    }

    @Test
    void notAnHdf5File(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path text = dir.resolve("notes.h5ad");
        java.nio.file.Files.writeString(text, "this is not HDF5\n".repeat(100));
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> H5ad.openMatrix(text, "/X"));
        assertEquals(text.toString(), e.file());
    }

    @Test
    void streamingAnOpenedMatrixDoesNotHangOnErrors() {
        FileMatrix x = H5ad.openMatrix(Fixtures.path("bad-index-range.h5ad"), "/X");
        assertThrows(ScfluxFormatException.class, () -> x.blocks().blockLast(Duration.ofSeconds(20)));
    }
}
