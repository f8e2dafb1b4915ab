/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.bytedeco.hdf5.global.hdf5.H5F_ACC_RDWR;
import static org.bytedeco.hdf5.global.hdf5.H5Fclose;
import static org.bytedeco.hdf5.global.hdf5.H5Fopen;
import static org.bytedeco.hdf5.global.hdf5.H5Gclose;
import static org.bytedeco.hdf5.global.hdf5.H5Gcreate2;
import static org.bytedeco.hdf5.global.hdf5.H5Lcreate_external;
import static org.bytedeco.hdf5.global.hdf5.H5Lcreate_hard;
import static org.bytedeco.hdf5.global.hdf5.H5Lcreate_soft;
import static org.bytedeco.hdf5.global.hdf5.H5Lmove;
import static org.bytedeco.hdf5.global.hdf5.H5P_DEFAULT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.PackedStrings;
import io.scflux.core.test.Matrices;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Structures a hostile file may hold, each refused with one error naming file and HDF5 path, never a
 * StackOverflowError, a ClassCastException or an output anndata cannot read: a hard-link cycle, 3,000 nested groups,
 * loops of soft links, dangling and external links, names that are not UTF-8, repeated categories, a column twice in
 * a CSR row. X stored as a soft link to a group is read through the link.
 */
class HostileStructureTest {

    @TempDir
    Path tmp;

    /** A copy of synth-3k-b with {@code edit} applied to it through the HDF5 library (the file's id). */
    private Path edited(String name, Consumer<Long> edit) throws IOException {
        Path file = tmp.resolve(name + ".h5ad");
        Files.copy(Fixtures.path("synth-3k-b.h5ad"), file);
        long id = H5Fopen(file.toString(), H5F_ACC_RDWR, H5P_DEFAULT);
        assertTrue(id >= 0);
        try {
            edit.accept(id);
        } finally {
            H5Fclose(id);
        }
        return file;
    }

    private static void refused(Path file, String path, String says) {
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> {
            AnnData a = H5ad.read(file);
            a.obs().names(); // names are decoded when first asked for
            a.var().names();
        });
        assertEquals(file.toString(), e.file(), e.getMessage());
        assertEquals(path, e.path(), e.getMessage());
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }

    @Test
    void aHardLinkCycleIsNamed() throws IOException {
        Path file = edited("loop", id -> H5Lcreate_hard(id, "/uns", id, "/uns/loop", H5P_DEFAULT, H5P_DEFAULT));
        refused(file, "/uns/loop", "is /uns again, a group that contains it: a cycle of hard links");
    }

    @Test
    void deepNestingIsRefusedBeforeTheStackRunsOut() throws IOException {
        Path file = edited("deep", id -> {
            StringBuilder path = new StringBuilder("/uns");
            for (int i = 0; i < 3000; i++) {
                path.append("/d");
                H5Gclose(H5Gcreate2(id, path.toString(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
            }
        });
        refused(
                file,
                "/uns" + "/d".repeat(ElementReader.MAX_DEPTH),
                "dicts nested more than " + ElementReader.MAX_DEPTH + " deep");
    }

    @Test
    void softLinksAreFollowedAndTheirLoopsNamed() throws IOException {
        Path loop = edited("softloop", id -> {
            H5Lcreate_soft("/uns/b", id, "/uns/a", H5P_DEFAULT, H5P_DEFAULT);
            H5Lcreate_soft("/uns/a", id, "/uns/b", H5P_DEFAULT, H5P_DEFAULT);
        });
        refused(loop, "/uns/a", "a loop of soft links");
        Path dangling = edited("dangling", id -> H5Lcreate_soft("/nowhere/x", id, "/uns/d", H5P_DEFAULT, H5P_DEFAULT));
        refused(dangling, "/uns/d", "a soft link to /nowhere/x, which does not exist");
        Path external = edited(
                "external", id -> H5Lcreate_external("/etc/passwd", "/x", id, "/uns/e", H5P_DEFAULT, H5P_DEFAULT));
        refused(external, "/uns/e", "an external link to /etc/passwd");

        Path linkedX = edited("softx", id -> {
            H5Lmove(id, "/X", id, "/realX", H5P_DEFAULT, H5P_DEFAULT);
            H5Lcreate_soft("/realX", id, "/X", H5P_DEFAULT, H5P_DEFAULT);
        });
        AnnData a = H5ad.read(linkedX);
        CsrMatrix x = Fixtures.collect(a.x(), PlanTarget.DEFAULT, 1);
        CsrMatrix original =
                Fixtures.collect(H5ad.read(Fixtures.path("synth-3k-b.h5ad")).x(), PlanTarget.DEFAULT, 1);
        Matrices.assertSame(original, x);
    }

    @Test
    void namesThatAreNotUtf8AreRefused() {
        byte[] bytes = "GENE0GENE1GENE\u00e9".getBytes(StandardCharsets.UTF_8);
        bytes[bytes.length - 1] = (byte) 0xFF; // the second byte of 'é' made invalid
        Frame var = new Frame(PackedStrings.of(bytes, new int[] {5, 10, bytes.length}), null);
        Path file = tmp.resolve("utf8.h5ad");
        H5ad.write(new AnnData(Matrices.random(4, 3, 0.5, 1), Frame.ofRange(4), var), file)
                .block();
        refused(file, "/var/_index", "string 2 is not UTF-8 (byte 4 of it)");
    }

    @Test
    void repeatedCategoriesAreRefused() {
        Frame obs = Frame.ofRange(4);
        obs.put(
                "sample",
                new CategoricalColumn(
                        DenseArray.of(new String[] {"D1", "D2", "D1"}), new int[] {0, 1, 2, 0}, false, DType.INT8));
        Path file = tmp.resolve("categories.h5ad");
        H5ad.write(new AnnData(Matrices.random(4, 3, 0.5, 1), obs, Frame.ofRange(3)), file)
                .block();
        refused(file, "/obs/sample/categories", "category 'D1' repeats");
    }

    @Test
    void aFileThatIsNotHdf5LeavesNoDescriptorOpen() throws IOException {
        Path file = tmp.resolve("noise.h5ad");
        byte[] noise = new byte[5000];
        new java.util.Random(3).nextBytes(noise);
        Files.write(file, noise);
        long before = openDescriptors();
        for (int i = 0; i < 200; i++) {
            ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> H5ad.read(file));
            assertTrue(e.getMessage().contains("not an HDF5 file"), e.getMessage());
            assertThrows(ScfluxFormatException.class, () -> H5ad.openMatrix(file, "/X"));
        }
        assertEquals(before, openDescriptors(), "jhdf opened the file before finding no signature, and kept it");
    }

    private static long openDescriptors() throws IOException {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void aColumnTwiceInARowIsRefusedWhenTheRowIsRead() {
        CsrMatrix twice = CsrMatrix.builder(5)
                .addRow(new int[] {0, 3}, new float[] {1, 2})
                .addRow(new int[] {4, 1, 4}, new float[] {1, 2, 3})
                .build();
        Path file = tmp.resolve("twice.h5ad");
        H5ad.write(AnnData.of(twice), file).block();
        ScfluxFormatException e = assertThrows(
                ScfluxFormatException.class,
                () -> Fixtures.collect(H5ad.read(file).x(), PlanTarget.DEFAULT, 1));
        assertEquals("/X/indices", e.path());
        assertTrue(e.getMessage().contains("row 1 (entries 2..4) holds column 4 more than once"), e.getMessage());
    }
}
