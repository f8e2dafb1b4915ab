/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jhdf.HdfFile;
import io.jhdf.api.Group;
import io.scflux.core.PlanTarget;
import io.scflux.core.Settings;
import io.scflux.core.TemporaryFiles;
import io.scflux.core.TemporaryName;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.io.hdf5.CsrArrays;
import io.scflux.io.hdf5.CsrStore;
import io.scflux.io.hdf5.Hdf5;
import io.scflux.io.hdf5.ReadStats;
import io.scflux.io.hdf5.Storage;
import io.scflux.io.hdf5.StoredArray;
import io.scflux.io.safety.FileStamp;
import io.scflux.io.transposed.TransposedStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSC input is transposed once into a CSR store, the same with any bucket size, reused while the file holds. */
class TransposedStoreTest {

    @TempDir
    Path cache;

    @TempDir
    Path work;

    /** The settings this test's matrices are opened under: its own cache folder, and room a test may bound. */
    private Settings settings;

    @BeforeEach
    void isolate() {
        settings = Settings.DEFAULT.withCacheDir(cache);
    }

    private FileMatrix open(Path file) {
        return H5ad.openMatrix(file, "/X", settings);
    }

    private List<Path> stores() throws IOException {
        try (var s = Files.list(cache)) {
            return s.filter(p -> p.toString().endsWith(".csr")).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void buildsOnceAndReusesWhileTheFileIsUnchanged() throws IOException {
        Path csc = Files.copy(Fixtures.path("synth-3k.csc-gzip.h5ad"), work.resolve("a.h5ad"));
        FileMatrix first = open(csc);
        CsrMatrix expected = Fixtures.collect(open(Fixtures.path("synth-3k.int64.h5ad")), PlanTarget.DEFAULT, 1);
        Fixtures.assertSameMatrix(expected, Fixtures.collect(first, PlanTarget.ofChunkNnz(50_000), 2));
        List<Path> built = stores();
        assertEquals(1, built.size());
        long readToBuild = first.stats().bytesRead();
        assertTrue(readToBuild > Files.size(csc) / 2, "building read the CSC data");

        FileMatrix again = open(csc);
        again.plan();
        assertEquals(built, stores());
        assertTrue(again.stats().bytesRead() < Files.size(csc) / 10, "reuse reads only the store's indptr");

        Files.setLastModifiedTime(
                csc, FileTime.fromMillis(Files.getLastModifiedTime(csc).toMillis() + 5000));
        FileMatrix changed = open(csc);
        Fixtures.assertSameMatrix(expected, Fixtures.collect(changed, PlanTarget.DEFAULT, 1));
        List<Path> rebuilt = stores();
        assertEquals(1, rebuilt.size(), "the stale store was removed");
        assertNotEquals(built, rebuilt);
    }

    @Test
    void spillingThroughManyBucketsGivesTheSameRows() {
        Path file = Fixtures.path("synth-3k.csc-gzip.h5ad");
        CsrMatrix inMemory = Fixtures.collect(open(file), PlanTarget.DEFAULT, 1);
        FileStamp stamp = FileStamp.of(file);
        CsrArrays csc;
        try (HdfFile hdf = new HdfFile(file);
                Storage s = Storage.open(file, stamp, new ReadStats())) {
            Group x = (Group) hdf.getByPath("/X");
            csc = CsrArrays.of(
                    StoredArray.of(hdf.getDatasetByPath("/X/indptr"), stamp.size()),
                    StoredArray.of(hdf.getDatasetByPath("/X/indices"), stamp.size()),
                    StoredArray.of(hdf.getDatasetByPath("/X/data"), stamp.size()),
                    2000,
                    3000,
                    s);
            assertEquals("csc_matrix", Hdf5.encodingType(x));
        }
        Settings spill = settings.withCacheDir(work);
        CsrStore store = TransposedStore.ensure(file, "/X-spilled", stamp, csc, new ReadStats(), 40_000, spill);
        MatrixInfo info = new MatrixInfo(
                "csc_matrix",
                io.scflux.core.DType.FLOAT32,
                3000,
                2000,
                csc.nnz(),
                io.scflux.core.DType.INT32,
                io.scflux.core.DType.INT32,
                "gzip",
                true);
        FileMatrix spilled =
                new SparseFileMatrix(file, "/X", info, stamp, stats -> store, FileMatrices.shipped(file, "/X", spill));
        Fixtures.assertSameMatrix(inMemory, Fixtures.collect(spilled, PlanTarget.ofChunkNnz(70_000), 3));
        try (var left = Files.list(work)) {
            assertEquals(
                    List.of(),
                    left.filter(p -> TemporaryName.owner(p.getFileName().toString())
                                            .orElse(-1)
                                    >= 0)
                            .collect(Collectors.toList()),
                    "spill and partial files are gone");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertEquals(
                List.of(),
                TemporaryFiles.writing().stream()
                        .filter(p -> p.startsWith(work))
                        .toList(),
                "and none is left for the shutdown hook");
    }

    /** The part and spill files are recorded for the shutdown hook while they exist: a signal removes them too. */
    @Test
    void partAndSpillFilesAreRecordedWhileTheyExist() throws IOException {
        Path part = TemporaryFiles.newFile(work, "x");
        assertTrue(Files.exists(part));
        assertTrue(TemporaryFiles.writing().contains(part));
        Files.delete(part);
        TemporaryFiles.remove(part);
        assertTrue(!TemporaryFiles.writing().contains(part));
    }

    @Test
    void theLeastRecentlyUsedCopiesMakeRoomUnderTheBound() throws IOException {
        Path a = Files.copy(Fixtures.path("synth-3k.csc-gzip.h5ad"), work.resolve("a.h5ad"));
        Path b = Files.copy(a, work.resolve("b.h5ad"));
        Path c = Files.copy(a, work.resolve("c.h5ad"));
        open(a).plan();
        Path storeOfA = stores().get(0);
        long one = Files.size(storeOfA);
        open(b).plan();
        assertEquals(2, stores().size());
        // a is used again (later than b): b is then the least recently used; a reader's view of a's copy holds
        FileStamp before = FileStamp.of(storeOfA);
        java.nio.file.attribute.BasicFileAttributeView view =
                Files.getFileAttributeView(storeOfA, java.nio.file.attribute.BasicFileAttributeView.class);
        view.setTimes(null, FileTime.fromMillis(0), null);
        open(a).plan();
        assertEquals(before.toString(), FileStamp.of(storeOfA).toString(), "reuse leaves the copy's stamp");
        settings = settings.withCacheMaxBytes(2 * one + one / 2);
        FileMatrix third = open(c);
        Fixtures.assertSameMatrix(
                Fixtures.collect(open(a), PlanTarget.DEFAULT, 1), Fixtures.collect(third, PlanTarget.DEFAULT, 1));
        List<Path> left = stores();
        assertEquals(2, left.size(), left.toString());
        assertTrue(left.contains(storeOfA), "a's copy, used last, stays: " + left);
        long total = 0;
        for (Path p : left) {
            total += Files.size(p);
        }
        assertTrue(total <= 2 * one + one / 2, total + " bytes under the bound");
    }

    @Test
    void aCopyLargerThanTheBoundIsAnErrorNamingTheSetting() throws IOException {
        Path a = Files.copy(Fixtures.path("synth-3k.csc-gzip.h5ad"), work.resolve("a.h5ad"));
        settings = settings.withCacheMaxBytes(1024);
        RuntimeException e =
                org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> open(a).plan());
        assertTrue(
                e.getMessage().contains(a.toString())
                        && e.getMessage().contains("SCFLUX_CACHE_MAX")
                        && e.getMessage().contains("1024 bytes"),
                e.getMessage());
        assertEquals(List.of(), stores());
    }
}
