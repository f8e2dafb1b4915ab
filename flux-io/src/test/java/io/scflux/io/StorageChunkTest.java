package io.scflux.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Readers of neighbouring blocks that need the same chunk at once decode it once; a failed decode is not kept. */
class StorageChunkTest {

    @Test
    void concurrentReadersOfOneChunkShareOneDecode(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[16]);
        try (Storage s = Storage.open(file, FileStamp.of(file), new ReadStats())) {
            AtomicInteger decodes = new AtomicInteger();
            CountDownLatch decoding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<ByteBuffer> first = CompletableFuture.supplyAsync(() -> s.decodedChunk(null, 7, () -> {
                decodes.incrementAndGet();
                decoding.countDown();
                await(release);
                return ByteBuffer.wrap(new byte[] {1, 2, 3});
            }));
            decoding.await(10, TimeUnit.SECONDS);
            Thread second = new Thread(() -> s.decodedChunk(null, 7, () -> {
                decodes.incrementAndGet();
                return ByteBuffer.wrap(new byte[] {9});
            }));
            second.start();
            while (second.getState() != Thread.State.WAITING && second.isAlive()) {
                Thread.onSpinWait();
            }
            release.countDown();
            second.join(10_000);
            assertEquals(3, first.get(10, TimeUnit.SECONDS).remaining());
            assertEquals(1, decodes.get(), "the second reader waited for the first one's decode");
            assertEquals(2, s.decodedChunk(null, 7, () -> {
                throw new AssertionError("decoded again although kept");
            }).get(1), "kept for later reads");
        }
    }

    @Test
    void aFailedDecodeFailsItsWaitersAndIsTriedAgain(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("f"), new byte[16]);
        try (Storage s = Storage.open(file, FileStamp.of(file), new ReadStats())) {
            IllegalStateException broken = new IllegalStateException("chunk 3: bad gzip stream");
            IllegalStateException thrown = assertThrows(IllegalStateException.class,
                    () -> s.decodedChunk(null, 3, () -> {
                        throw broken;
                    }));
            assertSame(broken, thrown);
            assertEquals(5, s.decodedChunk(null, 3, () -> ByteBuffer.wrap(new byte[] {5})).get(0));
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
