/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The buffers file reads land in follow the reads in progress, not the threads that ran them: reads on many threads
 * one after another share one buffer, and however many read at once, only a few idle buffers are kept.
 */
class ReadBuffersTest {

    @Test
    void aLentBufferHoldsTheReadAndANestedReadGetsAnother() {
        ReadBuffers.lend(3_000_000, outer -> {
            assertEquals(0, outer.position());
            assertEquals(3_000_000, outer.limit());
            assertTrue(outer.isDirect());
            assertEquals(0, outer.capacity() % (1 << 20), "sized in whole MiB steps: " + outer.capacity());
            ReadBuffers.lend(10, inner -> assertNotSame(outer, inner, "a buffer is lent to one read at a time"));
        });
    }

    @Test
    void readsOnManyThreadsOneAfterAnotherShareOneBuffer() throws Exception {
        ReadBuffers.lend(1 << 20, b -> {}); // at least one idle buffer of this size
        long before = ReadBuffers.idle()[0];
        for (int t = 0; t < 40; t++) {
            Thread reader = new Thread(() -> ReadBuffers.lend(1 << 20, b -> b.put(0, (byte) 1)));
            reader.start();
            reader.join(10_000);
            assertFalse(reader.isAlive());
        }
        assertEquals(before, ReadBuffers.idle()[0], "40 threads, each reading once, left no buffer of their own");
    }

    @Test
    void manyReadsAtOnceLeaveAtMostTheKeptNumberIdle() throws Exception {
        int readers = 3 * ReadBuffers.KEPT;
        CountDownLatch allIn = new CountDownLatch(readers);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < readers; t++) {
            Thread reader = new Thread(() -> ReadBuffers.lend(1 << 16, b -> {
                allIn.countDown();
                await(allIn);
            }));
            reader.start();
            threads.add(reader);
        }
        for (Thread reader : threads) {
            reader.join(10_000);
        }
        assertEquals(ReadBuffers.KEPT, ReadBuffers.idle()[0], readers + " reads at once");
    }

    @Test
    void aBufferLargerThanTheKeptLargestIsLetGoAfterItsRead() {
        long[] before = ReadBuffers.idle();
        ByteBuffer[] lent = new ByteBuffer[1];
        ReadBuffers.lend(ReadBuffers.KEPT_LARGEST + 1, b -> lent[0] = b);
        assertTrue(lent[0].isDirect());
        assertEquals(before[1], ReadBuffers.idle()[1], "a whole obs column's buffer is not kept");
    }

    @Test
    void aReadLargerThanAnyKeptBufferGetsItsOwnHeapBuffer() {
        long[] before = ReadBuffers.idle();
        ByteBuffer[] lent = new ByteBuffer[1];
        ReadBuffers.lend((64 << 20) + 1, b -> lent[0] = b);
        assertFalse(lent[0].isDirect());
        assertEquals(before[1], ReadBuffers.idle()[1], "not kept");
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
