/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.safety;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.io.test.H5pyHolder;
import io.scflux.io.test.TestFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@link FileGuard} keeps from being lost: an output that is not a regular file is refused before anything is
 * written; an in-place rewrite keeps the file's mode and owner; a file that h5py holds open for writing is neither
 * read nor rewritten.
 */
class FileGuardTest {

    @TempDir
    Path dir;

    private AnnData data() {
        return H5ad.read(TestFixtures.path("synth-3k-b.h5ad"));
    }

    @Test
    void aFifoOrAFolderIsNotAnOutput() throws Exception {
        Path fifo = dir.resolve("pipe");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo");
        Path folder = Files.createDirectory(dir.resolve("folder.h5ad"));
        for (Path target : List.of(fifo, folder)) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> H5ad.write(data(), target, WriteOptions.DEFAULT).block());
            assertTrue(e.getMessage().startsWith(target + " is a"), e.getMessage());
        }
        assertTrue(Files.isDirectory(folder) && !Files.isRegularFile(fifo), "neither was replaced");
        try (var left = Files.list(dir)) {
            assertEquals(2, left.count(), "no temporary file was made");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"rw-------", "rw-r-----"})
    void anInPlaceRewriteKeepsModeAndOwner(String mode) throws IOException {
        Path file = Files.copy(TestFixtures.path("synth-3k-b.h5ad"), dir.resolve("in.h5ad"));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            Files.setAttribute(file, "unix:uid", 1000);
            Files.setAttribute(file, "unix:gid", 1000);
        }
        Object inode = Files.getAttribute(file, "unix:ino");
        H5ad.writeInPlace(H5ad.read(file), file, WriteOptions.DEFAULT).block();
        assertTrue(!inode.equals(Files.getAttribute(file, "unix:ino")), "the file was rewritten (a new inode)");
        assertEquals(mode, PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        if (root) {
            assertEquals(1000, Files.getAttribute(file, "unix:uid"));
            assertEquals(1000, Files.getAttribute(file, "unix:gid"));
        }
        assertEquals(
                H5ad.read(TestFixtures.path("synth-3k-b.h5ad")).nObs(),
                H5ad.read(file).nObs());
    }

    @Test
    void aFileH5pyHoldsForWritingIsNeitherReadNorRewritten() throws IOException {
        Path file = Files.copy(TestFixtures.path("synth-3k-b.h5ad"), dir.resolve("held.h5ad"));
        AnnData before = H5ad.read(file);
        try (H5pyHolder holder = H5pyHolder.open(file, "r+")) {
            byte[] bytes = Files.readAllBytes(file); // as the holder has it: h5py marks the superblock open for writing
            UncheckedIOException read = assertThrows(UncheckedIOException.class, () -> H5ad.read(file));
            assertTrue(read.getMessage().contains("is open for writing by process"), read.getMessage());
            assertThrows(
                    UncheckedIOException.class,
                    () -> H5ad.writeInPlace(before, file, WriteOptions.DEFAULT).block());
            assertArrayEquals(bytes, Files.readAllBytes(file), "the held file is as the holder has it");
        }
        try (H5pyHolder reader = H5pyHolder.open(file, "r")) {
            assertEquals(before.nObs(), H5ad.read(file).nObs(), "a reader is no obstacle to reading");
        }
    }
}
