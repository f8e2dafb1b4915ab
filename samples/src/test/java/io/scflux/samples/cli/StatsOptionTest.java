/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** {@code --stats} prints one JSON line on stderr with the plan's blocks, the file reads and the cache counters. */
class StatsOptionTest {

    private static final String INT64 =
            Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toString();

    @Test
    void infoJsonReadsEachBlockOnce() throws Exception {
        // 1,205,649 entries in blocks of at most 100,000: 13 or more blocks
        Cli c = Cli.run("--stats", "--chunk-nnz", "100000", "info", "--json", INT64);
        assertEquals(0, c.exitCode(), c.err());
        JsonNode s = c.stats();
        long blocks = s.get("blocks").asLong();
        assertTrue(blocks >= 13, s.toString());
        assertEquals(blocks, s.get("blocks_read_from_file").asLong());
        assertEquals(blocks, s.get("cache").get("misses").asLong());
        assertEquals(0, s.get("cache").get("hits").asLong());
    }

    @Test
    void withoutACacheEveryPassGoesToTheFile() throws Exception {
        Cli c = Cli.run("--stats", "--cache-mb", "0", "info", "--json", INT64);
        assertEquals(0, c.exitCode(), c.err());
        JsonNode s = c.stats();
        assertEquals(0, s.get("cache").get("bytes").asLong());
        assertEquals(0, s.get("cache").get("budget_bytes").asLong());
        assertEquals(s.get("blocks").asLong(), s.get("blocks_read_from_file").asLong());
    }
}
