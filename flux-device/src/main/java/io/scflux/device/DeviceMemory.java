/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import java.nio.ByteBuffer;

/**
 * Device allocations and host-to-device copies, the only place buffers come from: {@link CudaMemory} on a GPU, a
 * counting fake in tests, which is how "one allocation per buffer, whatever the number of blocks" is checked without
 * a device.
 */
interface DeviceMemory {

    /** A device buffer of {@code bytes}. */
    DeviceBuffer allocate(long bytes);

    void free(DeviceBuffer buffer);

    /** A page-locked host buffer of {@code bytes} (at most {@link Integer#MAX_VALUE}), native byte order. */
    ByteBuffer allocateStaging(int bytes);

    void freeStaging(ByteBuffer staging);

    /** Copies {@code staging[0, bytes)} into {@code to} at {@code offset}. */
    void upload(ByteBuffer staging, DeviceBuffer to, long offset, long bytes);
}
