/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Results}: the oldest results deleted past the limit, never the newest, room made before a job. */
class ResultsTest {

    @TempDir
    Path folder;

    private Path file(String name, int bytes) throws IOException {
        return Files.write(folder.resolve(name), new byte[bytes]);
    }

    @Test
    void theOldestAreDeletedUntilAllFit() throws IOException {
        Results results = new Results(250);
        Results.Result a = results.add(file("a", 100), 100);
        Results.Result b = results.add(file("b", 100), 100);
        Results.Result c = results.add(file("c", 100), 100);
        assertTrue(a.evicted());
        assertFalse(Files.exists(folder.resolve("a")));
        assertFalse(b.evicted() || c.evicted());
        assertTrue(Files.exists(folder.resolve("b")) && Files.exists(folder.resolve("c")));
        assertEquals(200, results.total());
    }

    @Test
    void theNewestIsKeptEvenAloneOverTheLimit() throws IOException {
        Results results = new Results(250);
        Results.Result a = results.add(file("a", 100), 100);
        Results.Result big = results.add(file("big", 300), 300);
        assertTrue(a.evicted());
        assertFalse(big.evicted());
        assertTrue(Files.exists(folder.resolve("big")));
        assertEquals(300, results.total());
    }

    @Test
    void roomIsMadeForAnEstimateAndAnOutputThatCannotFitIsRefused() throws IOException {
        Results results = new Results(250);
        Results.Result a = results.add(file("a", 100), 100);
        Results.Result b = results.add(file("b", 100), 100);
        assertThrows(IllegalArgumentException.class, () -> results.makeRoom(251));
        assertFalse(a.evicted() || b.evicted(), "a refused job deletes nothing");
        results.makeRoom(100);
        assertTrue(a.evicted());
        assertFalse(b.evicted());
        assertEquals(100, results.total());
    }

    @Test
    void zeroIsNoLimit() throws IOException {
        Results results = new Results(0);
        results.makeRoom(Long.MAX_VALUE);
        for (int i = 0; i < 5; i++) {
            assertFalse(results.add(file("r" + i, 1000), 1000).evicted());
        }
        assertEquals(5000, results.total());
    }
}
