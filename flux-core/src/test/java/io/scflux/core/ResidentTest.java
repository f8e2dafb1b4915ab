/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Matrices;
import io.scflux.core.test.RecordingBackend;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Blocks resident on a backend (the recording test double): their arrays stay hidden until the backend downloads
 * them, the host refuses them, and a source placed on a backend and back gives its own blocks, each moved once.
 */
class ResidentTest {

    private static final CsrMatrix M = Matrices.random(30, 8, 0.4, 7);
    private static final PlanTarget TARGET = BlockSize.TINY.target();

    private final RecordingBackend device = new RecordingBackend("double");

    private static RowBlock first() {
        return M.blocks(M.plan(TARGET)).blockFirst();
    }

    @Test
    void aResidentBlockKeepsItsShapeAndHidesItsArrays() {
        RowBlock heap = first();
        ResidentBlock b = (ResidentBlock) device.upload(heap);
        assertSame(device, b.backend());
        assertSame(device, Resident.of(b));
        assertSame(HostBackend.INSTANCE, Resident.of(heap));
        assertEquals(List.of(heap.nRows(), heap.nCols(), heap.nnz()), List.of(b.nRows(), b.nCols(), b.nnz()));
        assertEquals(b.arrays().bytes(), b.sizeInBytes());
        for (Runnable read : List.<Runnable>of(b::indptr, b::indices, b::values)) {
            Exception e = assertThrows(IllegalStateException.class, read::run);
            assertTrue(e.getMessage().contains("resident on double"), e.getMessage());
        }
        ResidentBlock moved = b.relocate(5, 100);
        assertSame(b.arrays(), moved.arrays(), "relocated with its arrays");
        assertEquals(
                RowBlock.of(5, 100, heap.nCols(), heap.indptr(), heap.indices(), heap.values()),
                device.download(moved));
        assertEquals(0, device.memory().reserved());
        assertEquals(heap.sizeInBytes(), device.memory().peak());
    }

    @Test
    void theHostRefusesAResidentBlockNamingItsBackend() {
        RowBlock b = device.upload(first());
        for (Runnable use :
                List.<Runnable>of(() -> HostBackend.INSTANCE.upload(b), () -> HostBackend.INSTANCE.download(b))) {
            Exception e = assertThrows(IllegalArgumentException.class, use::run);
            assertTrue(e.getMessage().contains("resident on double"), e.getMessage());
        }
    }

    @Test
    void aSourcePlacedOnABackendAndBackGivesItsBlocksEachMovedOnce() {
        assertSame(M, PlacedSource.on(HostBackend.INSTANCE, M), "already on the host");
        BlockSource placed = PlacedSource.on(device, M);
        assertSame(device, Resident.of(placed));
        assertSame(placed, PlacedSource.on(device, placed));
        assertNull(placed.cacheKey(), "resident blocks are not cached");
        BlockSource back = PlacedSource.on(HostBackend.INSTANCE, placed);
        List<RowBlock> blocks = back.blocks(back.plan(TARGET)).collectList().block();
        assertEquals(M.blocks(M.plan(TARGET)).collectList().block(), blocks);
        assertEquals(blocks.size(), device.count("upload"));
        assertEquals(blocks.size(), device.count("download"));
        assertEquals(0, device.memory().reserved());
    }
}
