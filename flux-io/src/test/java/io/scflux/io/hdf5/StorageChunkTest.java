/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.scflux.io.safety.FileStamp;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers of neighbouring blocks that need the same chunk at once decode it once, the waiting one decoding the next
 * chunk meanwhile; a failed decode is not kept.
 */
class StorageChunkTest {

    @Test
    void concurrentReadersOfOneChunkShareOneDecode(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[16]);
        try (Storage s = Storage.open(file, FileStamp.of(file), new ReadStats())) {
            AtomicInteger decodes = new AtomicInteger();
            CountDownLatch decoding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<ByteBuffer> first = CompletableFuture.supplyAsync(() -> s.decodedChunk(
                    null,
                    7,
                    () -> {
                        decodes.incrementAndGet();
                        decoding.countDown();
                        await(release);
                        return ByteBuffer.wrap(new byte[] {1, 2, 3});
                    },
                    null));
            decoding.await(10, TimeUnit.SECONDS);
            AtomicInteger prefetched = new AtomicInteger();
            Thread second = new Thread(() -> s.decodedChunk(
                    null,
                    7,
                    () -> {
                        decodes.incrementAndGet();
                        return ByteBuffer.wrap(new byte[] {9});
                    },
                    () -> s.prefetchChunk(null, 8, () -> {
                        prefetched.incrementAndGet();
                        return ByteBuffer.wrap(new byte[] {8});
                    })));
            second.start();
            while (second.getState() != Thread.State.WAITING && second.isAlive()) {
                Thread.onSpinWait();
            }
            release.countDown();
            second.join(10_000);
            assertEquals(3, first.get(10, TimeUnit.SECONDS).remaining());
            assertEquals(1, decodes.get(), "the second reader waited for the first one's decode");
            assertEquals(1, prefetched.get(), "and decoded the next chunk meanwhile");
            assertEquals(
                    2,
                    s.decodedChunk(
                                    null,
                                    7,
                                    () -> {
                                        throw new AssertionError("decoded again although kept");
                                    },
                                    null)
                            .get(1),
                    "kept for later reads");
            assertEquals(
                    8,
                    s.decodedChunk(
                                    null,
                                    8,
                                    () -> {
                                        throw new AssertionError("decoded again although prefetched");
                                    },
                                    null)
                            .get(0),
                    "the prefetched chunk kept too");
        }
    }

    @Test
    void aFailedDecodeFailsItsWaitersAndIsTriedAgain(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[16]);
        try (Storage s = Storage.open(file, FileStamp.of(file), new ReadStats())) {
            IllegalStateException broken = new IllegalStateException("chunk 3: bad gzip stream");
            IllegalStateException thrown = assertThrows(
                    IllegalStateException.class,
                    () -> s.decodedChunk(
                            null,
                            3,
                            () -> {
                                throw broken;
                            },
                            null));
            assertSame(broken, thrown);
            assertEquals(
                    5,
                    s.decodedChunk(null, 3, () -> ByteBuffer.wrap(new byte[] {5}), null)
                            .get(0));
            s.prefetchChunk(null, 4, () -> {
                throw broken;
            });
            assertEquals(
                    6,
                    s.decodedChunk(null, 4, () -> ByteBuffer.wrap(new byte[] {6}), null)
                            .get(0),
                    "a failed prefetch is not kept: the reader decodes the chunk itself");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
