/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.transposed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.PlanTarget;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.CacheDir;
import io.scflux.io.Fixtures;
import io.scflux.io.H5ad;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache's own copies carry checksums: a CSC input's row-major copy changed after it was written (seeded byte
 * flips, as a bad disk or a user with the folder's rights would make) is refused with one line naming the copy, the
 * array, the chunk and the input, and removed, then rebuilt; its header or checksums changed, it is rebuilt at once;
 * never are its changed values read as the input's. The spills of a build are checked the same way.
 */
class CacheChecksumTest {

    @TempDir
    Path cache;

    @TempDir
    Path work;

    private CacheDir cacheDir;

    @BeforeEach
    void isolate() {
        cacheDir = CacheDir.at(cache);
    }

    @AfterEach
    void restore() {
        cacheDir.close();
    }

    /** The matrix as anndata stored it by rows: the same data, independent of the copy. */
    private static CsrMatrix expected() {
        return Fixtures.collect(H5ad.openMatrix(Fixtures.path("synth-3k.int64.h5ad"), "/X"), PlanTarget.DEFAULT, 1);
    }

    private Path input() throws IOException {
        return Files.copy(Fixtures.path("synth-3k.csc-gzip.h5ad"), work.resolve("a.h5ad"));
    }

    private Path onlyCopy() throws IOException {
        try (var s = Files.list(cache)) {
            List<Path> copies =
                    s.filter(p -> p.getFileName().toString().endsWith(".csr")).collect(Collectors.toList());
            assertEquals(1, copies.size(), copies.toString());
            return copies.get(0);
        }
    }

    /** The input read through its copy, on one thread: a refusal is one error, none dropped by another thread. */
    private CsrMatrix read(Path file) {
        return Fixtures.collect(H5ad.openMatrix(file, "/X", cacheDir.settings()), PlanTarget.ofChunkNnz(50_000), 1);
    }

    /** Flips one bit in each of {@code count} bytes drawn from {@code [from, to)} by {@code seed}. */
    private static void flip(Path file, long from, long to, int count, long seed) throws IOException {
        Random random = new Random(seed);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            for (int i = 0; i < count; i++) {
                long at = from + (long) (random.nextDouble() * (to - from));
                ByteBuffer b = ByteBuffer.allocate(1);
                ch.read(b, at);
                b.put(0, (byte) (b.get(0) ^ (1 << random.nextInt(8)))).clear();
                ch.write(b, at);
            }
        }
    }

    /** Header fields of a copy: rows, nnz, from which the arrays' places follow. */
    private static long[] layout(Path copy) throws IOException {
        try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.READ)) {
            ByteBuffer h = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
            ch.read(h, 0);
            long rows = h.getLong(8);
            long nnz = h.getLong(20);
            long idx = (64 + 8 * (rows + 1) + 63) & ~63L;
            long val = (idx + 4 * nnz + 63) & ~63L;
            return new long[] {rows, nnz, idx, val, val + 4 * nnz};
        }
    }

    @Test
    void tamperedValuesAreRefusedNamingCopyChunkAndInputThenTheCopyIsRebuilt() throws IOException {
        Path csc = input();
        CsrMatrix expected = expected();
        Fixtures.assertSameMatrix(expected, read(csc));
        Path copy = onlyCopy();
        long[] l = layout(copy);
        // 1,000 values changed, as the hostile test did
        flip(copy, l[3], l[4], 1000, 32);
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> read(csc));
        String m = e.getMessage();
        assertTrue(m.startsWith(copy + ": data: chunk "), m);
        assertTrue(m.contains("does not match its CRC32C checksum") && m.contains(csc + ":/X"), m);
        assertEquals(1, m.lines().count(), m);
        assertFalse(Files.exists(copy), "the changed copy is removed");
        Fixtures.assertSameMatrix(expected, read(csc));
        assertEquals(copy, onlyCopy(), "and built again under its name");
    }

    @Test
    void tamperedIndicesOrRowPointersAreRefusedToo() throws IOException {
        Path csc = input();
        CsrMatrix expected = expected();
        read(csc);
        Path copy = onlyCopy();
        long[] l = layout(copy);
        flip(copy, l[2], l[3], 3, 7);
        ScfluxFormatException indices = assertThrows(ScfluxFormatException.class, () -> read(csc));
        assertTrue(indices.getMessage().contains(": indices: chunk "), indices.getMessage());
        Fixtures.assertSameMatrix(expected, read(csc));
        flip(copy, 64, 64 + 8 * (l[0] + 1), 1, 8);
        ScfluxFormatException indptr = assertThrows(ScfluxFormatException.class, () -> read(csc));
        assertTrue(indptr.getMessage().contains(": indptr: chunk "), indptr.getMessage());
        Fixtures.assertSameMatrix(expected, read(csc));
    }

    @Test
    void aTamperedHeaderOrChecksumTableIsRebuiltBeforeUse() throws IOException {
        Path csc = input();
        CsrMatrix expected = expected();
        read(csc);
        Path copy = onlyCopy();
        long size = Files.size(copy);
        long[] l = layout(copy);
        // the checksums themselves, then the last one (over the header and the checksums)
        flip(copy, l[4] + 64, size - 4, 1, 3);
        Fixtures.assertSameMatrix(expected, read(csc));
        flip(copy, size - 4, size, 1, 4);
        Fixtures.assertSameMatrix(expected, read(csc));
        // the chunk size in the header: another layout, so another copy
        flip(copy, 28, 32, 1, 5);
        Fixtures.assertSameMatrix(expected, read(csc));
        assertEquals(size, Files.size(onlyCopy()));
    }

    /** Seeded flips anywhere in the copy: every read either refuses it or returns exactly the input's values. */
    @Test
    void flipsAnywhereAreNeverReadAsTheInput() throws IOException {
        Path csc = input();
        CsrMatrix expected = expected();
        read(csc);
        int refused = 0;
        List<String> messages = new ArrayList<>();
        for (long seed = 1; seed <= 12; seed++) {
            Path copy = onlyCopy();
            flip(copy, 0, Files.size(copy), 1 + (int) (seed * 7 % 40), seed);
            try {
                Fixtures.assertSameMatrix(expected, read(csc));
            } catch (ScfluxFormatException e) {
                refused++;
                messages.add(e.getMessage());
                assertTrue(
                        e.getMessage().contains("CRC32C") && e.getMessage().contains(csc.toString()), e.getMessage());
                Fixtures.assertSameMatrix(expected, read(csc));
            }
        }
        assertTrue(refused >= 6, refused + " of 12 refused: " + messages);
    }

    /** A spill of a build changed on disk before it is read back is refused, naming file, block and input. */
    @Test
    void aTamperedSpillIsRefused() throws IOException {
        try (BucketSpill spill = BucketSpill.open(work, "in.h5ad:/X", 4)) {
            int block = spill.blockBytes();
            int n = 3 * block / 12 + 5;
            for (int i = 0; i < n; i++) {
                spill.add(i, i % 7, Float.floatToRawIntBits(i * 0.5f));
            }
            // written but the last block, which is still buffered; read back in full
            List<Integer> rows = new ArrayList<>();
            spill.readBack((row, col, value) -> rows.add(row));
            assertEquals(n, rows.size());
            flip(spill.file(), block, 2L * block, 1, 11);
            ScfluxFormatException e =
                    assertThrows(ScfluxFormatException.class, () -> spill.readBack((row, col, value) -> {}));
            assertEquals(
                    spill.file() + ": block 1 (bytes " + block + ".." + 2 * block
                            + "): does not match its CRC32C checksum: this spill of in.h5ad:/X's row-major copy changed "
                            + "after scflux wrote it; nothing of it was kept",
                    e.getMessage());
        }
    }

    /** A spill cut short is refused before any of it is used. */
    @Test
    void aTruncatedSpillIsRefused() throws IOException {
        try (BucketSpill spill = BucketSpill.open(work, "in.h5ad:/X", 4)) {
            for (int i = 0; i < 1000; i++) {
                spill.add(i, 0, Float.floatToRawIntBits(1f));
            }
            spill.readBack((row, col, value) -> {});
            try (FileChannel ch = FileChannel.open(spill.file(), StandardOpenOption.WRITE)) {
                ch.truncate(600);
            }
            ScfluxFormatException e =
                    assertThrows(ScfluxFormatException.class, () -> spill.readBack((row, col, value) -> {}));
            assertTrue(e.getMessage().contains("holds 600 bytes, 12000 were written"), e.getMessage());
        }
    }
}
