/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.IdentityHashMap;
import java.util.Map;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

/**
 * {@link DeviceMemory} on the current CUDA context: {@code cuMemAlloc}, {@code cuMemAllocHost} for the page-locked
 * staging buffer, {@code cuMemcpyHtoD} from it.
 */
final class CudaMemory implements DeviceMemory {

    private final Map<ByteBuffer, Pointer> pinned = new IdentityHashMap<>();

    @Override
    public DeviceBuffer allocate(long bytes) {
        CUdeviceptr p = new CUdeviceptr();
        cuMemAlloc(p, Math.max(1, bytes));
        return new DeviceBuffer(bytes, p);
    }

    @Override
    public void free(DeviceBuffer buffer) {
        cuMemFree(pointer(buffer));
    }

    @Override
    public ByteBuffer allocateStaging(int bytes) {
        Pointer host = new Pointer();
        cuMemAllocHost(host, Math.max(1, bytes));
        ByteBuffer b = host.getByteBuffer(0, bytes).order(ByteOrder.nativeOrder());
        pinned.put(b, host);
        return b;
    }

    @Override
    public void freeStaging(ByteBuffer staging) {
        cuMemFreeHost(pinned.remove(staging));
    }

    @Override
    public void upload(ByteBuffer staging, DeviceBuffer to, long offset, long bytes) {
        cuMemcpyHtoD(pointer(to).withByteOffset(offset), pinned.get(staging), bytes);
    }

    static CUdeviceptr pointer(DeviceBuffer buffer) {
        return (CUdeviceptr) buffer.handle();
    }
}
