/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Device memory on the heap that counts allocations, frees and uploads: for tests without a GPU. */
class FakeMemory implements DeviceMemory {

    int allocations;
    int frees;
    int stagingAllocations;
    int stagingFrees;
    long uploads;

    @Override
    public DeviceBuffer allocate(long bytes) {
        allocations++;
        return new DeviceBuffer(
                bytes, ByteBuffer.allocate(Math.toIntExact(bytes)).order(ByteOrder.nativeOrder()));
    }

    @Override
    public void free(DeviceBuffer buffer) {
        frees++;
    }

    @Override
    public ByteBuffer allocateStaging(int bytes) {
        stagingAllocations++;
        return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }

    @Override
    public void freeStaging(ByteBuffer staging) {
        stagingFrees++;
    }

    @Override
    public void upload(ByteBuffer staging, DeviceBuffer to, long offset, long bytes) {
        uploads++;
        ByteBuffer device = contents(to);
        for (int i = 0; i < bytes; i++) {
            device.put(Math.toIntExact(offset + i), staging.get(i));
        }
    }

    static ByteBuffer contents(DeviceBuffer buffer) {
        return (ByteBuffer) buffer.handle();
    }
}
