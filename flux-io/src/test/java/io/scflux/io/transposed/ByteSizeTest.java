/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.transposed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Sizes as users write them: bytes, or K, M, G as powers of 1024, and what is refused (past a long too). */
class ByteSizeTest {

    @ParameterizedTest
    @CsvSource({
        "0, 0",
        "1048577, 1048577",
        "1M, 1048576",
        "64k, 65536",
        "2GiB, 2147483648",
        "1 mb, 1048576",
        "512B, 512",
        "8589934591G, 9223372035781033984"
    })
    void readsBytesAndUnits(String text, long bytes) {
        assertEquals(bytes, ByteSize.parse(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "1.5M", "1T", "M", "1 M B", "8589934592G"})
    void refusesWhatIsNoSize(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(text));
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }
}
