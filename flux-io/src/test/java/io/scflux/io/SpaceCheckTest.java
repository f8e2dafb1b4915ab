/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.test.Matrices;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The space check on a tight disk, its free space faked: a 12 MiB tmpfs holding nothing else has 12,578,816 bytes
 * free, and what the write puts there is taken from it. A file of about 8 MB fits and is written (the check used to
 * ask for its chunk caches plus 8 MiB more and refused it "as a full disk"); so does a file on a disk with exactly
 * its estimate free: the checks while writing never refuse what the check before it let start. A file that cannot
 * fit is refused before it is created, in one line naming the folder as it was given (here a relative one).
 */
class SpaceCheckTest {

    /** Free on an empty 12 MiB tmpfs. */
    private static final long TMPFS_FREE = 12_578_816;

    /** A relative folder, as a user would name it: under target/, the working folder of the tests being the module. */
    private Path folder;

    @BeforeEach
    void makeFolder() throws IOException {
        folder = Path.of("target", "space-check-" + ProcessHandle.current().pid());
        Files.createDirectories(folder);
    }

    @AfterEach
    void removeFolder() throws IOException {
        try (Stream<Path> s = Files.walk(folder)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static AnnData eightMegabytes() {
        return AnnData.of(Matrices.random(10_000, 2_000, 0.045, 32));
    }

    private static WriteOptions options(String compression) {
        return WriteOptions.DEFAULT.withCompression(WriteOptions.Compression.valueOf(compression));
    }

    /** A disk that had {@code free} bytes before the write, less what the file being written takes now. */
    private static Function<Path, DiskSpace> disk(long free) {
        return file -> new DiskSpace(file, () -> free - sizeOf(file), Long.MAX_VALUE);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"NONE", "GZIP"})
    void aFileThatFitsATightDiskIsWritten(String compression) throws IOException {
        AnnData data = eightMegabytes();
        WriteOptions options = options(compression);
        Path out = folder.resolve("qc.h5ad");
        H5adWriter.write(data, out, options, WriteLayout.INT32_LIMIT, disk(TMPFS_FREE))
                .block();
        long written = Files.size(out);
        System.out.printf(
                Locale.ROOT,
                "SpaceCheckTest: %s: %,d bytes written on a disk with %,d free%n",
                compression,
                written,
                TMPFS_FREE);
        assertTrue(written < TMPFS_FREE && written > TMPFS_FREE / 8, "a file of a few MB: " + written);
        assertEquals(10_000, H5ad.read(out).nObs());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NONE", "GZIP"})
    void aFileOnADiskWithExactlyItsEstimateFreeIsWritten(String compression) throws IOException {
        AnnData data = eightMegabytes();
        WriteOptions options = options(compression);
        long estimate = OutputSize.of(data, options).bytes();
        Path out = folder.resolve("exact.h5ad");
        H5adWriter.write(data, out, options, WriteLayout.INT32_LIMIT, disk(estimate))
                .block();
        System.out.printf(
                Locale.ROOT,
                "SpaceCheckTest: %s: %,d bytes written on a disk with its estimate, %,d, " + "free%n",
                compression,
                Files.size(out),
                estimate);
        assertTrue(Files.size(out) <= estimate);
    }

    @ParameterizedTest
    @ValueSource(strings = {"NONE", "GZIP"})
    void aFileThatCannotFitIsRefusedBeforeItIsCreated(String compression) throws IOException {
        AnnData data = eightMegabytes();
        WriteOptions options = options(compression);
        Path elsewhere = folder.resolve("elsewhere.h5ad");
        H5ad.write(data, elsewhere, options).block();
        long free = Files.size(elsewhere) - 1; // one byte short of the file itself
        Path small = Files.createDirectory(folder.resolve("small"));
        Path out = small.resolve("qc.h5ad");
        UncheckedIOException e = assertThrows(
                UncheckedIOException.class,
                () -> H5adWriter.write(data, out, options, WriteLayout.INT32_LIMIT, disk(free))
                        .block());
        System.out.println("SpaceCheckTest: " + compression + ": " + e.getMessage());
        String mb = String.format(Locale.ROOT, "%.1f MB free in ", Math.floor(free / 1e5) / 10);
        assertTrue(
                e.getMessage()
                                .matches("qc\\.h5ad: needs about \\d+\\.\\d MB, " + mb.replace(".", "\\.")
                                        + small.toString().replace(".", "\\."))
                        && !small.isAbsolute(),
                e.getMessage());
        assertFalse(e.getMessage().contains("disk is full"), e.getMessage());
        try (Stream<Path> s = Files.list(small)) {
            assertEquals(List.of(), s.toList(), "nothing created");
        }
    }
}
