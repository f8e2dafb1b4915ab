/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

/**
 * One allocation of device memory: its size and the allocator's handle for it (a {@code CUdeviceptr} on CUDA, a
 * heap buffer in tests).
 */
final class DeviceBuffer {

    private final long bytes;
    private final Object handle;

    DeviceBuffer(long bytes, Object handle) {
        this.bytes = bytes;
        this.handle = handle;
    }

    long bytes() {
        return bytes;
    }

    Object handle() {
        return handle;
    }
}
