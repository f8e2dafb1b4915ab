/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.ScfluxFormatException;
import io.scflux.core.TemporaryName;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wilcoxon spill reads back what was written, refuses what changed on disk since, and is named by the rule. */
class RangeSpillTest {

    @TempDir
    Path dir;

    private static long[] readAll(RangeSpill spill, int range) {
        LongStream.Builder out = LongStream.builder();
        spill.read(range, (records, n) -> {
            for (int i = 0; i < n; i++) {
                out.add(records[i]);
            }
        });
        return out.build().toArray();
    }

    private Path onlyFile() throws IOException {
        try (var s = Files.list(dir)) {
            List<Path> files = s.toList();
            assertEquals(1, files.size(), files.toString());
            return files.get(0);
        }
    }

    @Test
    void aChangedBlockIsRefusedBeforeAnyOfItIsRanked() throws IOException {
        long[] first = LongStream.range(0, 5000).map(i -> i * 31 + 7).toArray();
        long[] second = {-1, 0, Long.MAX_VALUE};
        try (RangeSpill spill = RangeSpill.open(dir, new long[] {first.length, second.length})) {
            // interleaved, in pieces, as a pass over X appends them
            for (int from = 0; from < first.length; from += 700) {
                spill.append(0, first, from, Math.min(first.length, from + 700));
                if (from == 0) {
                    spill.append(1, second, 0, 3);
                }
            }
            spill.flush();
            Path file = onlyFile();
            assertEquals(
                    ProcessHandle.current().pid(),
                    TemporaryName.owner(file.getFileName().toString()).orElse(-1),
                    file + " is named with its owner's pid");
            assertTrue(file.getFileName().toString().startsWith(".wilcoxon.scflux-"), file.toString());
            assertArrayEquals(first, readAll(spill, 0));
            assertArrayEquals(second, readAll(spill, 1));

            // one bit of record 4100 of range 0 (its second block of 4096 records) changes on disk
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.allocate(1);
                ch.read(b, 4100L * 8 + 3);
                b.put(0, (byte) (b.get(0) ^ 0x10)).clear();
                ch.write(b, 4100L * 8 + 3);
            }
            long[] seen = new long[1];
            ScfluxFormatException e =
                    assertThrows(ScfluxFormatException.class, () -> spill.read(0, (records, n) -> seen[0] += n));
            assertEquals(
                    file + ": range 0, block 1 (bytes 32768..40000): does not match its CRC32C checksum: this "
                            + "spill of X's values for the wilcoxon ranks changed after scflux wrote it; nothing of it was "
                            + "ranked",
                    e.getMessage());
            assertEquals(0, seen[0], "no record of the range was handed on");
            assertArrayEquals(second, readAll(spill, 1), "the other range is intact");
        }
        try (var s = Files.list(dir)) {
            assertEquals(List.of(), s.toList(), "closed, the spill is gone");
        }
    }

    @Test
    void aRangeAppendedToAfterItsLastBlockIsABug() {
        try (RangeSpill spill = RangeSpill.open(dir, new long[] {10})) {
            long[] r = new long[10];
            Arrays.fill(r, 1);
            spill.append(0, r, 0, 3);
            spill.flush();
            spill.append(0, r, 3, 10);
            IllegalStateException e = assertThrows(IllegalStateException.class, spill::flush);
            assertTrue(e.getMessage().contains("appended to after its last block"), e.getMessage());
        }
    }
}
