/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.test.Matrices;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * The one set of device buffers the CUDA backend's kernels upload every block into: allocated once for the plan's
 * largest block, each block uploaded intact over the previous one, a failed allocation giving back what it took, and
 * closing freeing everything (a fake device memory records the calls).
 */
class DeviceBlocksTest {

    @Test
    void aThousandBlockRunAllocatesEachBufferOnceAndUploadsEveryBlockIntact() {
        // 3,000 rows cut in blocks of at most 3 rows: 1,000 blocks
        CsrMatrix m = Matrices.random(3000, 40, 0.3, 7);
        FakeMemory memory = new FakeMemory();
        MemoryAccount account = MemoryAccount.root("cuda", 1 << 20);
        DevicePlan plan = DevicePlan.of(m, new PlanTarget(1 << 20, 3), account.cap());
        assertEquals(1000, plan.plan().size());
        AtomicInteger seen = new AtomicInteger();
        DeviceBlocks buffers = new DeviceBlocks(memory, account, plan.maxBlockRows(), plan.maxBlockNnz());
        StepVerifier.create(m.blocks(plan.plan()))
                .thenConsumeWhile(b -> {
                    buffers.upload(b, true, null);
                    int[] indptr = new int[b.nRows() + 1];
                    FakeMemory.contents(buffers.indptr).asIntBuffer().get(indptr);
                    int[] indices = new int[b.nnz()];
                    FakeMemory.contents(buffers.indices).asIntBuffer().get(indices);
                    float[] values = new float[b.nnz()];
                    FakeMemory.contents(buffers.values).asFloatBuffer().get(values);
                    assertArrayEquals(b.indptr(), indptr);
                    assertArrayEquals(b.indices(), indices);
                    assertArrayEquals(b.values(), values);
                    assertEquals(seen.getAndIncrement(), b.blockIndex());
                    assertEquals(5, memory.allocations, "still one allocation per buffer at block " + b.blockIndex());
                    return true;
                })
                .verifyComplete();
        buffers.close();
        assertEquals(1000, seen.get());
        assertEquals(5, memory.allocations, "indptr, indices, values, factors, output");
        assertEquals(1, memory.stagingAllocations);
        assertEquals(5, memory.frees);
        assertEquals(1, memory.stagingFrees);
        assertEquals(0, account.reserved());
        long widest = 0;
        int rows = 0;
        for (int i = 0; i < plan.plan().size(); i++) {
            widest = Math.max(widest, plan.plan().nnz(i));
            rows = Math.max(rows, plan.plan().nRows(i));
        }
        assertEquals(
                4L * (rows + 1) + 12 * widest + 8L * rows,
                account.peak(),
                "the buffers were sized by the largest block");
    }

    @Test
    void aFailedAllocationGivesBackWhatWasTaken() {
        FakeMemory memory = new FakeMemory() {
            @Override
            public DeviceBuffer allocate(long bytes) {
                if (allocations == 3) {
                    throw new jcuda.CudaException("CUDA_ERROR_OUT_OF_MEMORY");
                }
                return super.allocate(bytes);
            }
        };
        MemoryAccount account = MemoryAccount.root("cuda", 1 << 20);
        org.junit.jupiter.api.Assertions.assertThrows(
                jcuda.CudaException.class, () -> new DeviceBlocks(memory, account, 10, 100));
        assertEquals(3, memory.frees);
        assertEquals(0, account.reserved());
    }

    @Test
    void closingFreesTheBuffersOnce() {
        FakeMemory memory = new FakeMemory();
        MemoryAccount account = MemoryAccount.root("cuda", 1 << 20);
        DeviceBlocks buffers = new DeviceBlocks(memory, account, 10, 100);
        buffers.upload(Matrices.random(3, 40, 0.3, 8).blocks().blockFirst(), true, null);
        buffers.close();
        buffers.close();
        assertEquals(5, memory.frees);
        assertEquals(0, account.reserved());
    }
}
