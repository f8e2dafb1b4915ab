/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.bytedeco.hdf5.global.hdf5.H5F_OBJ_ALL;
import static org.bytedeco.hdf5.global.hdf5.H5F_OBJ_FILE;
import static org.bytedeco.hdf5.global.hdf5.H5Fget_obj_count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.test.Matrices;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The writer's failure path when the disk fills up, with the shortage injected: the free space the writer sees drops
 * at its {@code n}-th check (before the file is created, during the annotations, the first matrix block, or the
 * middle of X). The write fails with one line saying what it needs and what is free in the folder (never that the
 * disk is full: nothing failed to be written); the temporary file is gone, no file stays open in the HDF5 library
 * and no descriptor stays open in the process; the next write, with room, succeeds.
 */
class DiskFullTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(ints = {1, 4, 9, 40})
    void aFullDiskFailsTheWriteCleanly(int fullFromCheck) throws IOException {
        AnnData data = AnnData.of(Matrices.random(4000, 300, 0.2, 11));
        WriteOptions options = WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(4096));
        Path target = tmp.resolve("out.h5ad");
        long filesBefore = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE);
        List<String> fdsBefore = descriptors();
        AtomicLong checks = new AtomicLong();
        UncheckedIOException e = assertThrows(
                UncheckedIOException.class,
                () -> H5adWriter.write(
                                data,
                                target,
                                options,
                                WriteLayout.INT32_LIMIT,
                                file -> new DiskSpace(
                                        file,
                                        () -> checks.incrementAndGet() >= fullFromCheck ? 1 << 20 : Long.MAX_VALUE / 4,
                                        Long.MAX_VALUE))
                        .block());
        // the first check is the one before the file is created; the others, while writing, name the element
        String says = fullFromCheck == 1 ? "out.h5ad: needs about " : "out.h5ad: /";
        assertTrue(
                e.getMessage().startsWith(says)
                        && e.getMessage().contains(" MB free in " + tmp)
                        && !e.getMessage().contains("disk is full"),
                e.getMessage());
        assertTrue(checks.get() >= fullFromCheck, "the shortage was met at check " + fullFromCheck);
        assertEquals(List.of(), files(), "no temporary file left");
        assertEquals(filesBefore, H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE), "the library closed the file");
        assertEquals(fdsBefore, descriptors(), "no descriptor left open");

        H5ad.write(data, target, options).block();
        assertEquals(4000, H5ad.read(target).nObs(), "the next write, with room, completes");
    }

    @Test
    void theProcessFileSizeLimitIsReadFromLinuxLimits() throws IOException {
        Path limits = tmp.resolve("limits");
        Files.writeString(limits, """
                Limit                     Soft Limit           Hard Limit           Units
                Max cpu time              unlimited            unlimited            seconds
                Max file size             1024000              unlimited            bytes
                """);
        assertEquals(1024000, DiskSpace.fileSizeLimit(limits));
        Files.writeString(limits, "Max file size             unlimited            unlimited            bytes\n");
        assertEquals(Long.MAX_VALUE, DiskSpace.fileSizeLimit(limits));
        assertEquals(Long.MAX_VALUE, DiskSpace.fileSizeLimit(tmp.resolve("absent")));
    }

    @Test
    void theFileSizeLimitIsRefusedBeforeTheLibraryMeetsIt() throws IOException {
        Path file = tmp.resolve("f.h5");
        Files.write(file, new byte[1000]);
        DiskSpace space = new DiskSpace(file, () -> Long.MAX_VALUE, DiskSpace.METADATA_MARGIN + 5000);
        space.require(4000, "f.h5: /X/data");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> space.require(4001, "f.h5: /X/data"));
        assertTrue(
                e.getMessage()
                        .startsWith("f.h5: /X/data: the file would grow past the size this process may "
                                + "write (ulimit -f: "),
                e.getMessage());
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.toList();
        }
    }

    /**
     * The files this process holds open (links of /proc/self/fd), sorted; sockets, pipes and the JVM's own reads of
     * /proc and /sys (its container's memory limits, read from the cgroup files at any moment) left out.
     */
    private static List<String> descriptors() throws IOException {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.map(fd -> {
                        try {
                            return Files.readSymbolicLink(fd).toString();
                        } catch (IOException e) {
                            return "";
                        }
                    })
                    .filter(link -> link.startsWith("/") && !link.startsWith("/proc") && !link.startsWith("/sys/"))
                    .sorted()
                    .toList();
        }
    }
}
