/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.TemporaryFiles;
import io.scflux.core.TemporaryName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plot's or table's write: its temporary file named by {@link TemporaryName}'s rule (a 250-byte target included),
 * recorded for the shutdown hook while it is written, and the leftovers of killed runs removed first.
 */
class AtomicFileTest {

    @TempDir
    Path dir;

    @Test
    void theTemporaryFileIsNamedByTheRuleAndRecordedWhileWritten() throws IOException {
        Path target = dir.resolve("p".repeat(246) + ".png"); // 250 bytes
        List<Path> writing = new ArrayList<>();
        AtomicFile.write(target, out -> {
            writing.addAll(TemporaryFiles.writing().stream()
                    .filter(f -> f.getParent().equals(dir))
                    .toList());
            out.write("image".getBytes(StandardCharsets.UTF_8));
        });
        assertEquals(1, writing.size(), writing.toString());
        assertEquals(
                OptionalLong.of(ProcessHandle.current().pid()),
                TemporaryName.owner(writing.get(0).getFileName().toString()));
        assertTrue(
                TemporaryFiles.writing().stream().noneMatch(f -> f.getParent().equals(dir)), "forgotten after");
        assertEquals("image", Files.readString(target));
        assertEquals(List.of(target.getFileName().toString()), files());
    }

    @Test
    void aWriteRemovesTheLeftoversOfDeadRunsInItsFolder() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Files.writeString(dir.resolve(TemporaryName.of("plot.png", gone.pid(), 0xbeef)), "half a plot");
        AtomicFile.write(dir.resolve("table.csv"), out -> out.write('x'));
        assertEquals(List.of("table.csv"), files());
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}
