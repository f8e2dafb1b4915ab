/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A frame whose index is read when first asked for: its size before, the names once, shared by its copies. */
class FrameTest {

    private static final String[] NAMES = {"AAAC-1", "zelle-ü001", "细胞-002"};

    @Test
    void aLazyIndexIsReadOnceWhenFirstAskedForAndSharedByCopies() {
        AtomicInteger reads = new AtomicInteger();
        Frame f = new Frame(
                3,
                () -> {
                    reads.incrementAndGet();
                    return PackedStrings.of(NAMES);
                },
                "cell");
        f.put("n", ArrayColumn.of(new double[] {1, 2, 3}));
        Frame copy = f.copy();
        Frame indexOnly = f.indexOnly();
        assertEquals(3, f.size());
        assertEquals(0, reads.get(), "size and columns do not read the index");
        assertArrayEquals(NAMES, copy.index());
        assertSame(f.names(), indexOnly.names(), "the copies share the one read");
        assertEquals(2, f.positionOf("细胞-002"));
        assertArrayEquals(
                new String[] {"细胞-002", "AAAC-1"}, f.take(new int[] {2, 0}).index());
        assertEquals(1, reads.get());
        assertEquals("cell", copy.indexName());
    }

    @Test
    void aFailedReadIsThrownToEachCallerAndAWrongSizeIsRefused() {
        AtomicInteger reads = new AtomicInteger();
        Frame failing = new Frame(
                3,
                () -> {
                    reads.incrementAndGet();
                    throw new IllegalStateException("file gone");
                },
                null);
        assertThrows(IllegalStateException.class, failing::names);
        assertThrows(IllegalStateException.class, failing::index);
        assertEquals(2, reads.get(), "a failure is not remembered as the index");
        IllegalStateException wrong = assertThrows(
                IllegalStateException.class, () -> new Frame(2, () -> PackedStrings.of(NAMES), null).names());
        assertTrue(wrong.getMessage().contains("an index of 2 rows read 3 names"), wrong.getMessage());
    }
}
