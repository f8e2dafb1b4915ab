/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD8;

import io.scflux.core.Backend;
import io.scflux.core.ColumnMap;
import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.ResidentArrays;
import io.scflux.core.ResidentBlock;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.ops.concat.ReindexKernel;
import io.scflux.ops.moments.ColumnSumsKernel;
import io.scflux.ops.moments.HostColumnSums;
import io.scflux.ops.normalized.NormalizeLog1pKernel;
import io.scflux.ops.pca.GramKernel;
import io.scflux.ops.pca.HostGram;
import io.scflux.ops.pca.ProjectionKernel;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kernels on CUDA device 0 of the steps it accelerates (concat's re-indexing, normalize and log1p, the column
 * sums of HVG, scale and the gene sums, PCA's Gram product and projection; {@link #kernel} finds them, and the other
 * steps run their host form): each host block is uploaded into one set of buffers allocated once (sized by the
 * device plan's bound on a block) and reused for every block, its kernel runs, and only the result comes back.
 * Reductions are 128-bit fixed-point sums per block ({@link FixedPoint}), the same bits on every run, merged in block
 * order by the caller; a block holding a non-finite value is reduced on the host instead, which propagates it as
 * float64 does. Calls are serialized: the buffers are shared.
 *
 * <p>Blocks may also stay on the device between operations ({@link #upload}): each then has its own arrays, accounted
 * in the child account {@code cuda/resident} until it is downloaded or re-indexed (which consume it) or the backend
 * closes. Re-indexing ({@link #reindex}) runs on such blocks where they are; the other kernels take heap blocks.
 */
public final class CudaBackend
        implements Backend,
                ReindexKernel,
                NormalizeLog1pKernel,
                ColumnSumsKernel,
                GramKernel,
                ProjectionKernel,
                AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CudaBackend.class);

    private final CUcontext context;
    private final DeviceMemory memory;
    private final Kernels kernels;
    private final MemoryAccount account;
    private final MemoryAccount resident;
    private final Set<DeviceArrays> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private PlanTarget capacity;
    private @Nullable DeviceBlocks blocks;
    private @Nullable DeviceBuffer workspace;
    private double @Nullable [] loadingsOnDevice;
    private @Nullable DeviceBuffer mapBuffer;
    private @Nullable ColumnMap mapOnDevice;

    private CudaBackend(CUcontext context, DeviceMemory memory, Kernels kernels, MemoryAccount account) {
        this.context = context;
        this.memory = memory;
        this.kernels = kernels;
        this.account = account;
        this.resident = account.child("resident", Long.MAX_VALUE);
        this.capacity = DevicePlan.target(PlanTarget.DEFAULT, DevicePlan.blockBudget(account.cap()));
    }

    /** The backend on device 0's primary context, its buffers capped at {@code capBytes}. */
    static CudaBackend open(long capBytes) {
        CUdevice device = new CUdevice();
        cuDeviceGet(device, 0);
        CUcontext context = new CUcontext();
        cuDevicePrimaryCtxRetain(context, device);
        cuCtxSetCurrent(context);
        if (LOG.isInfoEnabled()) {
            byte[] name = new byte[256];
            cuDeviceGetName(name, name.length, device);
            long[] total = new long[1];
            cuDeviceTotalMem(total, device);
            int end = 0;
            while (end < name.length && name[end] != 0) {
                end++;
            }
            LOG.info(
                    "computing on CUDA device 0, {} ({} MiB){}",
                    new String(name, 0, end, java.nio.charset.StandardCharsets.US_ASCII),
                    total[0] >> 20,
                    capBytes == Long.MAX_VALUE ? "" : ", its buffers capped at " + (capBytes >> 20) + " MiB");
        }
        return new CudaBackend(context, new CudaMemory(), new Kernels(), MemoryAccount.root("cuda", capBytes));
    }

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public boolean isHost() {
        return false;
    }

    @Override
    public MemoryAccount memory() {
        return account;
    }

    /**
     * The largest target, at most {@code requested}, whose blocks fit this backend's buffers under its cap; the
     * buffers are then sized for it. Cut plans with it before the first kernel runs.
     */
    @Override
    public synchronized PlanTarget target(PlanTarget requested) {
        if (blocks != null) {
            throw new IllegalStateException("the device buffers are already allocated for " + capacity);
        }
        capacity = DevicePlan.target(requested, DevicePlan.blockBudget(account.cap()));
        return capacity;
    }

    /** {@code block} copied into device arrays of its own, resident here until it is consumed. */
    @Override
    public synchronized RowBlock upload(RowBlock block) {
        if (block instanceof ResidentBlock) {
            throw new IllegalArgumentException(block + " is resident already; download it from its backend first");
        }
        cuCtxSetCurrent(context);
        int rows = block.nRows();
        DeviceBuffer indptr = buffer(4L * (rows + 1));
        DeviceArrays a = arrays(indptr, block.nnz());
        copyIn(CudaMemory.pointer(a.indptr), Pointer.to(block.indptr()), indptr.bytes());
        copyIn(CudaMemory.pointer(a.indices), Pointer.to(block.indices()), a.indices.bytes());
        copyIn(CudaMemory.pointer(a.values), Pointer.to(block.values()), a.values.bytes());
        return ResidentBlock.of(block.blockIndex(), block.rowStart(), rows, block.nCols(), block.nnz(), a);
    }

    /** A resident block's arrays copied to the heap, its device arrays freed; a heap block as it is. */
    @Override
    public synchronized RowBlock download(RowBlock block) {
        DeviceArrays a = own(block);
        if (a == null) {
            return block;
        }
        cuCtxSetCurrent(context);
        int[] indptr = new int[block.nRows() + 1];
        int[] indices = new int[block.nnz()];
        float[] values = new float[block.nnz()];
        copyOut(Pointer.to(indptr), a.indptr);
        copyOut(Pointer.to(indices), a.indices);
        copyOut(Pointer.to(values), a.values);
        free(a);
        return RowBlock.of(block.blockIndex(), block.rowStart(), block.nCols(), indptr, indices, values);
    }

    /**
     * A resident block re-indexed on the device (each row's count, the row pointers, each row's entries; only the
     * entry count comes back to the host, to size the result), the input's arrays freed; a heap block is re-indexed
     * on the heap, as uploading it for one kernel would cost more than the kernel.
     */
    @Override
    public synchronized RowBlock reindex(RowBlock block, ColumnMap map, float fill) {
        DeviceArrays in = own(block);
        if (in == null) {
            return map.reindex(block, fill);
        }
        if (block.nCols() != map.nIn()) {
            throw new IllegalArgumentException(block + " has " + block.nCols() + " columns, its map " + map.nIn());
        }
        cuCtxSetCurrent(context);
        int rows = block.nRows();
        CUdeviceptr to = columnMap(map);
        CUdeviceptr missing = to.withByteOffset(4L * block.nCols());
        DeviceBuffer indptr = buffer(4L * (rows + 1));
        int[] nnz = new int[1];
        try {
            kernels.reindexCount(rows, in, to, fill != 0 ? map.missingCount() : 0, indptr);
            kernels.rowPointers(rows, indptr);
            cuMemcpyDtoH(Pointer.to(nnz), CudaMemory.pointer(indptr).withByteOffset(4L * rows), 4);
        } catch (RuntimeException e) {
            free(indptr);
            throw e;
        }
        DeviceArrays out = arrays(indptr, nnz[0]);
        kernels.reindexRows(rows, in, to, missing, map.missingCount(), map.keepsOrder(), fill, out);
        free(in);
        return ResidentBlock.of(block.blockIndex(), block.rowStart(), rows, map.nOut(), nnz[0], out);
    }

    @Override
    public Stage normalizeLog1p(double[] factors, boolean single, @Nullable Double base) {
        double lnBase = base == null ? 1 : Math.log(base);
        return block -> {
            float[] out = new float[block.nnz()];
            synchronized (this) {
                DeviceBlocks b = intoBuffers(block, false, factors);
                kernels.normalizeLog1p(block.nRows(), b, single, lnBase);
                cuMemcpyDtoH(Pointer.to(out), CudaMemory.pointer(b.out), 4L * out.length);
            }
            return block.withValues(out);
        };
    }

    @Override
    public synchronized void columnSums(RowBlock block, boolean float32Squares, double[] sum, double[] squares) {
        double max = FixedPoint.maxAbs(block);
        if (!Double.isFinite(max)) {
            HostColumnSums.INSTANCE.columnSums(block, float32Squares, sum, squares);
            return;
        }
        int n = block.nCols();
        int eSum = FixedPoint.sumExponent(block, max);
        int eSq = FixedPoint.squareExponent(block, max);
        DeviceBlocks b = intoBuffers(block, true, null);
        CUdeviceptr cells = cleared(32L * n);
        CUdeviceptr squareCells = cells.withByteOffset(16L * n);
        kernels.columnSums(block.nnz(), b, float32Squares, eSum, eSq, cells, squareCells);
        FixedPoint.addTo(download(cells, 2 * n), eSum, sum);
        FixedPoint.addTo(download(squareCells, 2 * n), eSq, squares);
    }

    /** Each block in turn, uploaded as it comes, so that device memory stays bounded by one block. */
    @Override
    public synchronized void gram(List<RowBlock> blocks, double[] upper, double[] columnSums) {
        for (RowBlock block : blocks) {
            gram(block, upper, columnSums);
        }
    }

    private void gram(RowBlock block, double[] upper, double[] columnSums) {
        double max = FixedPoint.maxAbs(block);
        if (!Double.isFinite(max)) {
            HostGram.INSTANCE.gram(List.of(block), upper, columnSums);
            return;
        }
        int p = block.nCols();
        int eGram = FixedPoint.gramExponent(block, max);
        int eSum = FixedPoint.sumExponent(block, max);
        DeviceBlocks b = intoBuffers(block, true, null);
        CUdeviceptr cells = cleared(16L * (upper.length + p));
        CUdeviceptr sumCells = cells.withByteOffset(16L * upper.length);
        kernels.gram(block.nRows(), block.nnz(), b, p, eGram, eSum, cells, sumCells);
        FixedPoint.addTo(download(cells, 2 * upper.length), eGram, upper);
        FixedPoint.addTo(download(sumCells, 2 * p), eSum, columnSums);
    }

    @Override
    public synchronized RowBlock project(RowBlock block, double[] loadings, int k, double[] meanV) {
        int rows = block.nRows();
        DeviceBlocks b = intoBuffers(block, true, null);
        long loadingBytes = 8L * loadings.length;
        long outOffset = loadingBytes + 8L * k;
        if (loadingsOnDevice != loadings) {
            DeviceBuffer room = workspace(outOffset + 4L * b.rowCapacity() * k);
            b.doubles(loadings, 0, loadings.length, room, 0);
            b.doubles(meanV, 0, k, room, loadingBytes);
            loadingsOnDevice = loadings;
        }
        CUdeviceptr base = CudaMemory.pointer(Objects.requireNonNull(workspace, "workspace")); // made with the loadings
        CUdeviceptr out = base.withByteOffset(outOffset);
        kernels.project(rows, b, k, base, base.withByteOffset(loadingBytes), out);
        float[] values = new float[rows * k];
        cuMemcpyDtoH(Pointer.to(values), out, 4L * values.length);
        int[] outPtr = new int[rows + 1];
        int[] outIdx = new int[rows * k];
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < k; j++) {
                outIdx[r * k + j] = j;
            }
            outPtr[r + 1] = (r + 1) * k;
        }
        return RowBlock.of(block.blockIndex(), block.rowStart(), k, outPtr, outIdx, values);
    }

    /** Frees the buffers and the arrays of blocks still resident; the account then holds nothing. */
    @Override
    public synchronized void close() {
        cuCtxSetCurrent(context);
        for (DeviceArrays a : live.toArray(DeviceArrays[]::new)) {
            free(a);
        }
        if (mapBuffer != null) {
            free(mapBuffer);
            mapBuffer = null;
            mapOnDevice = null;
        }
        if (blocks != null) {
            blocks.close();
            blocks = null;
        }
        if (workspace != null) {
            memory.free(workspace);
            account.release(workspace.bytes());
            workspace = null;
        }
    }

    /** The arrays of {@code block} when it is resident here, null when it is on the heap. */
    private @Nullable DeviceArrays own(RowBlock block) {
        if (!(block instanceof ResidentBlock resident)) {
            return null;
        }
        ResidentArrays r = resident.arrays();
        if (r.backend() != this) {
            throw new IllegalArgumentException(block + " is resident on " + r.backend() + ", not on " + this);
        }
        DeviceArrays a = (DeviceArrays) r;
        if (!live.contains(a)) {
            throw new IllegalStateException(block + ": its device arrays were freed, the block was consumed");
        }
        return a;
    }

    /** A device buffer of {@code bytes} reserved in the resident account first. */
    private DeviceBuffer buffer(long bytes) {
        resident.reserve(bytes);
        try {
            return memory.allocate(bytes);
        } catch (RuntimeException e) {
            resident.release(bytes);
            throw e;
        }
    }

    private void free(DeviceBuffer b) {
        memory.free(b);
        resident.release(b.bytes());
    }

    /** Resident arrays of {@code nnz} entries around {@code indptr}, which is freed when they cannot be allocated. */
    private DeviceArrays arrays(DeviceBuffer indptr, int nnz) {
        DeviceBuffer indices = null;
        try {
            indices = buffer(4L * nnz);
            DeviceArrays a = new DeviceArrays(this, indptr, indices, buffer(4L * nnz));
            live.add(a);
            return a;
        } catch (RuntimeException e) {
            if (indices != null) {
                free(indices);
            }
            free(indptr);
            throw e;
        }
    }

    private void free(DeviceArrays a) {
        live.remove(a);
        free(a.indptr);
        free(a.indices);
        free(a.values);
    }

    /**
     * {@code map}'s output column of each input column followed by its missing columns, on the device: uploaded when
     * it is not the map uploaded last (inputs are read one after another, so a concatenation uploads each map about
     * once), into a buffer reallocated only when it must grow.
     */
    private CUdeviceptr columnMap(ColumnMap map) {
        DeviceBuffer buffer = mapBuffer;
        if (mapOnDevice != map || buffer == null) {
            int[] to = map.columns();
            int[] missing = map.missing();
            long bytes = 4L * (to.length + missing.length);
            mapOnDevice = null;
            if (buffer == null || buffer.bytes() < bytes) {
                if (buffer != null) {
                    free(buffer);
                    mapBuffer = null;
                }
                buffer = buffer(bytes);
                mapBuffer = buffer;
            }
            copyIn(CudaMemory.pointer(buffer), Pointer.to(to), 4L * to.length);
            copyIn(CudaMemory.pointer(buffer).withByteOffset(4L * to.length), Pointer.to(missing), 4L * missing.length);
            mapOnDevice = map;
        }
        return CudaMemory.pointer(buffer);
    }

    private static void copyIn(CUdeviceptr to, Pointer from, long bytes) {
        if (bytes > 0) {
            cuMemcpyHtoD(to, from, bytes);
        }
    }

    private static void copyOut(Pointer to, DeviceBuffer from) {
        if (from.bytes() > 0) {
            cuMemcpyDtoH(to, CudaMemory.pointer(from), from.bytes());
        }
    }

    /** Uploads into the block buffers, allocating them the first time only. */
    private DeviceBlocks intoBuffers(RowBlock block, boolean withIndices, double @Nullable [] factors) {
        cuCtxSetCurrent(context);
        if (blocks == null) {
            blocks = new DeviceBlocks(memory, account, capacity.maxRows(), capacity.chunkNnz());
        }
        blocks.upload(block, withIndices, factors);
        return blocks;
    }

    /** The workspace, reallocated only when an operation needs more than it holds (once per operation). */
    private DeviceBuffer workspace(long bytes) {
        if (workspace == null || workspace.bytes() < bytes) {
            if (workspace != null) {
                memory.free(workspace);
                account.release(workspace.bytes());
                workspace = null;
            }
            account.reserve(bytes);
            try {
                workspace = memory.allocate(bytes);
            } catch (RuntimeException e) {
                account.release(bytes);
                throw e;
            }
        }
        loadingsOnDevice = null;
        return workspace;
    }

    /** The first {@code bytes} of the workspace, zeroed. */
    private CUdeviceptr cleared(long bytes) {
        CUdeviceptr p = CudaMemory.pointer(workspace(bytes));
        cuMemsetD8(p, (byte) 0, bytes);
        return p;
    }

    private static long[] download(CUdeviceptr from, int words) {
        long[] cells = new long[words];
        cuMemcpyDtoH(Pointer.to(cells), from, 8L * words);
        return cells;
    }

    @Override
    public String toString() {
        return "CudaBackend[" + account + "]";
    }
}
