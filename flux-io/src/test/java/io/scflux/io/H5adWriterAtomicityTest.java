/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.PlanTarget;
import io.scflux.core.TemporaryFiles;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.Frame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** The target appears complete or not at all: errors and cancellations leave no target and no temporary file. */
class H5adWriterAtomicityTest {

    @TempDir
    Path dir;

    /** 100 rows of 10 columns, one entry per row: 10 blocks at 10 entries per block. */
    private static CsrMatrix hundredRows() {
        CsrMatrix.Builder b = CsrMatrix.builder(10);
        for (int r = 0; r < 100; r++) {
            b.addRow(new int[] {r % 10}, new float[] {r});
        }
        return b.build();
    }

    private Mono<Void> write(IntConsumer beforeRead, Path target) {
        return H5ad.write(
                AnnData.of(new ScriptedSource(hundredRows(), beforeRead)),
                target,
                WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(10)));
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** Waits until the HDF5 thread has run what was queued on it (a cancelled write's clean-up). */
    private static void drainHdf5Thread() {
        Mono.fromRunnable(() -> {}).subscribeOn(NativeHdf5.THREAD).block();
    }

    @Test
    void aFailingSourceLeavesNoTargetAndNoTemporaryFile() throws IOException {
        Path target = dir.resolve("out.h5ad");
        StepVerifier.create(write(
                        i -> {
                            if (i == 4) {
                                throw new IllegalStateException("disk on fire at block 4");
                            }
                        },
                        target))
                .expectErrorMessage("disk on fire at block 4")
                .verify();
        assertEquals(List.of(), files());
    }

    @Test
    void anAbortThatOvertakesTheOpenLeavesNothingToCreate() throws IOException {
        AtomicOutput out = new AtomicOutput(dir.resolve("out.h5ad"));
        out.abort(new java.util.concurrent.CancellationException("cancelled"));
        assertThrows(java.util.concurrent.CancellationException.class, () -> out.open(WriteOptions.DEFAULT));
        out.abort(new java.util.concurrent.CancellationException("again")); // idempotent
        assertEquals(List.of(), files());
    }

    @Test
    void theNextWriteRemovesTemporaryFilesOfDeadWritersOnly() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long dead = gone.pid();
        long alive = ProcessHandle.current().pid();
        Path stale = Files.writeString(dir.resolve(".old.h5ad.scflux-" + dead + "-1f2e.tmp"), "half a file");
        Path live = Files.writeString(dir.resolve(".other.h5ad.scflux-" + alive + "-3c4d.tmp"), "being written");
        Path unrelated = Files.writeString(dir.resolve(".notes.tmp"), "not ours");
        H5ad.write(AnnData.of(hundredRows()), dir.resolve("out.h5ad")).block();
        assertFalse(Files.exists(stale), "a dead writer's temporary file is removed");
        assertTrue(Files.exists(live), "a live writer's temporary file is kept");
        assertTrue(Files.exists(unrelated), "other files are kept");
        assertEquals(List.of(".notes.tmp", ".other.h5ad.scflux-" + alive + "-3c4d.tmp", "out.h5ad"), files());
    }

    @Test
    void aFailedWriteLeavesAnEarlierTargetByteIdentical() throws IOException {
        Path target = dir.resolve("out.h5ad");
        write(i -> {}, target).block();
        byte[] before = Files.readAllBytes(target);
        StepVerifier.create(write(
                        i -> {
                            if (i == 7) {
                                throw new IllegalStateException("boom");
                            }
                        },
                        target))
                .expectError(IllegalStateException.class)
                .verify();
        assertArrayEquals(before, Files.readAllBytes(target));
        assertEquals(List.of("out.h5ad"), files());
    }

    @Test
    void cancellingMidWriteLeavesNoTargetAndNoTemporaryFile() throws Exception {
        Path target = dir.resolve("out.h5ad");
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        String[] whileWriting = new String[1];
        StepVerifier.create(write(
                        i -> {
                            if (i == 5) {
                                try {
                                    whileWriting[0] = String.join(",", files());
                                    reached.countDown();
                                    release.await(30, TimeUnit.SECONDS);
                                } catch (IOException | InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                            }
                        },
                        target))
                .then(() -> assertDoesNotTimeOut(reached))
                .thenCancel()
                .verify();
        release.countDown();
        drainHdf5Thread();
        assertTrue(
                whileWriting[0].matches(
                        "\\.out\\.h5ad\\.scflux-" + ProcessHandle.current().pid() + "-[0-9a-f]+\\.tmp"),
                "temporary file while writing: " + whileWriting[0]);
        assertEquals(List.of(), files());
        assertEquals(List.of(), leftToTheShutdownHook());
    }

    @Test
    void theShutdownHookHasTheTemporaryFileUntilItIsRenamedOrDeleted() throws IOException {
        List<Path> whileWriting = new ArrayList<>();
        write(
                        i -> {
                            if (i == 5) {
                                whileWriting.addAll(leftToTheShutdownHook());
                            }
                        },
                        dir.resolve("out.h5ad"))
                .block();
        assertEquals(1, whileWriting.size(), whileWriting::toString);
        assertTrue(
                whileWriting.get(0).getFileName().toString().startsWith(".out.h5ad.scflux-"), whileWriting::toString);
        assertEquals(List.of(), leftToTheShutdownHook(), "after the rename");
        StepVerifier.create(write(
                        i -> {
                            if (i == 5) {
                                throw new IllegalStateException("boom");
                            }
                        },
                        dir.resolve("failed.h5ad")))
                .expectErrorMessage("boom")
                .verify();
        assertEquals(List.of(), leftToTheShutdownHook(), "after the failure");
        assertEquals(List.of("out.h5ad"), files());
    }

    /** The files of {@link #dir} that {@link TemporaryFiles}' shutdown hook would delete now. */
    private List<Path> leftToTheShutdownHook() {
        return TemporaryFiles.writing().stream()
                .filter(f -> f.getParent().equals(dir.toAbsolutePath()))
                .toList();
    }

    @Test
    void theTargetMayBeAnInputThatIsReadUntilTheEnd() throws Exception {
        Path target = dir.resolve("in-place.h5ad");
        Files.writeString(target, "the input");
        H5ad.write(
                        AnnData.of(new ScriptedSource(hundredRows(), i -> {
                            try {
                                assertEquals(
                                        "the input", Files.readString(target), "the target changed before block " + i);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        })),
                        target,
                        WriteOptions.DEFAULT.withPlan(PlanTarget.ofChunkNnz(10)))
                .block();
        byte[] head = new byte[8];
        System.arraycopy(Files.readAllBytes(target), 0, head, 0, 8);
        assertArrayEquals(new byte[] {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'}, head);
        assertEquals(List.of("in-place.h5ad"), files());
    }

    @Test
    void aBadAnnotationFailsBeforeAnyMatrixIsStreamedAndLeavesNothing() throws IOException {
        AnnData data = AnnData.of(new ScriptedSource(hundredRows(), i -> {
            throw new AssertionError("no block may be read");
        }));
        data.uns().put("bad", new Object());
        Path target = dir.resolve("out.h5ad");
        StepVerifier.create(H5ad.write(data, target))
                .expectErrorSatisfies(e -> {
                    assertTrue(e instanceof IllegalArgumentException, e.toString());
                    assertTrue(e.getMessage().startsWith("/uns/bad: cannot write a java.lang.Object"), e.getMessage());
                })
                .verify();
        assertEquals(List.of(), files());
    }

    @Test
    void aLibraryErrorNamesTheFileAndTheHdf5Path() throws IOException {
        // 5000 column names overflow the 64 KiB object-header message that holds column-order (as with h5py)
        Frame obs = new Frame(new String[] {"c"});
        for (int i = 0; i < 5000; i++) {
            obs.put("column_" + i, ArrayColumn.of(new int[] {i}));
        }
        Path target = dir.resolve("wide.h5ad");
        StepVerifier.create(H5ad.write(new AnnData(null, obs, Frame.ofRange(1)), target))
                .expectErrorSatisfies(e -> {
                    assertTrue(e instanceof UncheckedIOException, e.toString());
                    assertTrue(
                            e.getMessage().startsWith("wide.h5ad: /obs: H5Acreate2 'column-order' failed"),
                            e.getMessage());
                })
                .verify();
        assertEquals(List.of(), files());
    }

    @Test
    void aMissingFolderIsAnErrorAndCreatesNothing() throws IOException {
        Path target = dir.resolve("no/such/folder/out.h5ad");
        UncheckedIOException e = assertThrows(
                UncheckedIOException.class, () -> write(i -> {}, target).block());
        assertTrue(e.getMessage().contains("the folder does not exist"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("no")));
    }

    @Test
    void aTargetThatIsAFolderIsAnErrorAndCreatesNothing() throws IOException {
        Path target = Files.createDirectory(dir.resolve("out.h5ad"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> write(i -> {}, target).block());
        assertTrue(e.getMessage().startsWith(target + " is a folder, not a file to write"), e.getMessage());
        assertEquals(List.of("out.h5ad"), files());
        try (var inside = Files.list(target)) {
            assertEquals(0, inside.count());
        }
    }

    @Test
    void writingIsLazy() throws IOException {
        Mono<Void> w = write(i -> {}, dir.resolve("out.h5ad"));
        assertEquals(List.of(), files(), "nothing happens before subscription");
        w.block();
        assertEquals(List.of("out.h5ad"), files());
    }

    private static void assertDoesNotTimeOut(CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS), "the write never reached the block");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aTargetNameOf250BytesIsWrittenThoughItsTemporaryNameWouldBeLonger() throws IOException {
        String name = "n".repeat(245) + ".h5ad"; // 250 bytes, valid; with the mark unshortened it would be 290
        H5ad.write(AnnData.of(hundredRows()), dir.resolve(name)).block();
        assertEquals(List.of(name), files());
        assertEquals(100, H5ad.read(dir.resolve(name)).nObs());
    }
}
