/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A size option refused as a usage error that says what it takes ({@code --max-body}). */
class ByteSizeOptionTest {

    @ParameterizedTest
    @ValueSource(strings = {"x", "0"})
    void serveSaysWhatItTakes(String size) {
        Cli c = Cli.run("serve", "--data", ".", "--port", "0", "--max-body", size);
        assertEquals(2, c.exitCode(), c.err());
        assertTrue(
                c.err().contains(size.equals("x") ? "not a size: x" : "--max-body must be at least 1 byte"), c.err());
    }
}
