/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import io.scflux.core.MemoryAccount;
import io.scflux.core.RowBlock;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The one set of device buffers every block of a run is uploaded into: row pointers, indices, values, per-row factors
 * and an output of one float per entry, sized once for the largest block, plus one reused page-locked staging buffer
 * the copies go through. Nothing is allocated per block; the bytes are reserved in a {@link MemoryAccount} first, so a
 * cap refuses them before the device is asked.
 */
final class DeviceBlocks implements AutoCloseable {

    /** Largest staging buffer: arrays larger than this are copied through it in pieces. */
    static final int MAX_STAGING = 1 << 26;

    private final DeviceMemory memory;
    private final MemoryAccount account;
    private final int rowCapacity;
    private final long nnzCapacity;
    final DeviceBuffer indptr;
    final DeviceBuffer indices;
    final DeviceBuffer values;
    final DeviceBuffer factors;
    final DeviceBuffer out;
    private final ByteBuffer staging;
    private long reserved;

    DeviceBlocks(DeviceMemory memory, MemoryAccount account, int rowCapacity, long nnzCapacity) {
        this.memory = memory;
        this.account = account;
        this.rowCapacity = rowCapacity;
        this.nnzCapacity = nnzCapacity;
        long bytes = deviceBytes(rowCapacity, nnzCapacity);
        account.reserve(bytes);
        List<DeviceBuffer> made = new ArrayList<>();
        try {
            indptr = allocate(4L * (rowCapacity + 1), made);
            indices = allocate(4L * nnzCapacity, made);
            values = allocate(4L * nnzCapacity, made);
            factors = allocate(8L * rowCapacity, made);
            out = allocate(4L * nnzCapacity, made);
            staging = memory.allocateStaging(stagingBytes(rowCapacity, nnzCapacity));
        } catch (RuntimeException e) {
            made.forEach(memory::free);
            account.release(bytes);
            throw e;
        }
        reserved = bytes;
    }

    private DeviceBuffer allocate(long bytes, List<DeviceBuffer> made) {
        DeviceBuffer b = memory.allocate(bytes);
        made.add(b);
        return b;
    }

    /** Device bytes for blocks of up to {@code rows} rows and {@code nnz} entries. */
    static long deviceBytes(long rows, long nnz) {
        return 4 * (rows + 1) + 12 * nnz + 8 * rows;
    }

    /** The staging buffer for such blocks: the largest array, at most {@link #MAX_STAGING} bytes. */
    static int stagingBytes(long rows, long nnz) {
        return (int) Math.min(MAX_STAGING, Math.max(64, Math.max(8 * rows, 4 * Math.max(nnz, rows + 1))));
    }

    int rowCapacity() {
        return rowCapacity;
    }

    long nnzCapacity() {
        return nnzCapacity;
    }

    /**
     * Uploads the block's row pointers and values, its indices when {@code withIndices}, and its rows' entries of
     * {@code rowFactors} (indexed by global row) when not null.
     */
    void upload(RowBlock block, boolean withIndices, double @Nullable [] rowFactors) {
        if (block.nRows() > rowCapacity || block.nnz() > nnzCapacity) {
            throw new IllegalStateException(block + " does not fit the device buffers (" + rowCapacity + " rows, "
                    + nnzCapacity + " entries), which were sized for the plan; cut blocks with the device plan");
        }
        ints(block.indptr(), 0, block.nRows() + 1, indptr);
        if (withIndices) {
            ints(block.indices(), 0, block.nnz(), indices);
        }
        floats(block.values(), block.nnz(), values);
        if (rowFactors != null) {
            doubles(rowFactors, Math.toIntExact(block.rowStart()), block.nRows(), factors, 0);
        }
    }

    private void ints(int[] a, int from, int count, DeviceBuffer to) {
        for (int done = 0; done < count; ) {
            int n = Math.min(count - done, staging.capacity() / 4);
            staging.clear();
            staging.asIntBuffer().put(a, from + done, n);
            memory.upload(staging, to, 4L * done, 4L * n);
            done += n;
        }
    }

    /** Uploads {@code a[from, from + count)} into {@code to} at byte {@code offset}, through the staging buffer. */
    void doubles(double[] a, int from, int count, DeviceBuffer to, long offset) {
        for (int done = 0; done < count; ) {
            int n = Math.min(count - done, staging.capacity() / 8);
            staging.clear();
            staging.asDoubleBuffer().put(a, from + done, n);
            memory.upload(staging, to, offset + 8L * done, 8L * n);
            done += n;
        }
    }

    private void floats(float[] a, int count, DeviceBuffer to) {
        for (int done = 0; done < count; ) {
            int n = Math.min(count - done, staging.capacity() / 4);
            staging.clear();
            staging.asFloatBuffer().put(a, done, n);
            memory.upload(staging, to, 4L * done, 4L * n);
            done += n;
        }
    }

    /** Frees every buffer and gives the bytes back to the account. */
    @Override
    public void close() {
        if (reserved == 0) {
            return;
        }
        for (DeviceBuffer b : new DeviceBuffer[] {indptr, indices, values, factors, out}) {
            memory.free(b);
        }
        memory.freeStaging(staging);
        account.release(reserved);
        reserved = 0;
    }
}
