package io.scflux.device;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemsetD8;

import io.scflux.core.BlockSource;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import io.scflux.core.backend.Backend;
import io.scflux.core.backend.HostBackend;
import io.scflux.core.backend.MemoryAccount;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import reactor.core.publisher.Flux;

/**
 * The kernels on CUDA device 0: each host block is uploaded into one set of buffers allocated once (sized by the
 * device plan's bound on a block) and reused for every block, its kernel runs, and only the result comes back.
 * Reductions are 128-bit fixed-point sums per block ({@link FixedPoint}), the same bits on every run, merged in block
 * order by the caller; a block holding a non-finite value is reduced on the host instead, which propagates it as
 * float64 does. Calls are serialized: the buffers are shared.
 */
public final class CudaBackend implements Backend, AutoCloseable {

    private final CUcontext context;
    private final DeviceMemory memory;
    private final Kernels kernels;
    private final MemoryAccount account;
    private PlanTarget capacity;
    private DeviceBlocks blocks;
    private DeviceBuffer workspace;
    private double[] loadingsOnDevice;

    private CudaBackend(CUcontext context, DeviceMemory memory, Kernels kernels, MemoryAccount account) {
        this.context = context;
        this.memory = memory;
        this.kernels = kernels;
        this.account = account;
        this.capacity = DevicePlan.target(PlanTarget.DEFAULT, DevicePlan.blockBudget(account.cap()));
    }

    /** The backend on device 0's primary context, its buffers capped at {@code capBytes}. */
    static CudaBackend open(long capBytes) {
        CUdevice device = new CUdevice();
        cuDeviceGet(device, 0);
        CUcontext context = new CUcontext();
        cuDevicePrimaryCtxRetain(context, device);
        cuCtxSetCurrent(context);
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

    /**
     * The blocks of {@code source}, cut in about {@code chunkNnz} entries (fewer when the cap needs it), each uploaded
     * in turn into one set of buffers allocated on subscription for the plan's largest block.
     */
    public Flux<DeviceBlock> toDevice(BlockSource source, long chunkNnz) {
        return Flux.defer(() -> {
            DevicePlan plan = DevicePlan.of(source, PlanTarget.ofChunkNnz(chunkNnz),
                    DevicePlan.blockBudget(account.cap()));
            return DeviceStream.of(source, plan, memory, account);
        });
    }

    @Override
    public Stage normalizeLog1p(double[] factors, boolean single, Double base) {
        double lnBase = base == null ? 1 : Math.log(base);
        return block -> {
            float[] out = new float[block.nnz()];
            synchronized (this) {
                DeviceBlocks b = upload(block, false, factors);
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
            HostBackend.INSTANCE.columnSums(block, float32Squares, sum, squares);
            return;
        }
        int n = block.nCols();
        int eSum = FixedPoint.sumExponent(block, max);
        int eSq = FixedPoint.squareExponent(block, max);
        DeviceBlocks b = upload(block, true, null);
        CUdeviceptr cells = cleared(32L * n);
        CUdeviceptr squareCells = cells.withByteOffset(16L * n);
        kernels.columnSums(block.nnz(), b, float32Squares, eSum, eSq, cells, squareCells);
        FixedPoint.addTo(download(cells, 2 * n), eSum, sum);
        FixedPoint.addTo(download(squareCells, 2 * n), eSq, squares);
    }

    @Override
    public synchronized void gram(RowBlock block, double[] upper, double[] columnSums) {
        double max = FixedPoint.maxAbs(block);
        if (!Double.isFinite(max)) {
            HostBackend.INSTANCE.gram(block, upper, columnSums);
            return;
        }
        int p = block.nCols();
        int eGram = FixedPoint.gramExponent(block, max);
        int eSum = FixedPoint.sumExponent(block, max);
        DeviceBlocks b = upload(block, true, null);
        CUdeviceptr cells = cleared(16L * (upper.length + p));
        CUdeviceptr sumCells = cells.withByteOffset(16L * upper.length);
        kernels.gram(block.nRows(), block.nnz(), b, p, eGram, eSum, cells, sumCells);
        FixedPoint.addTo(download(cells, 2 * upper.length), eGram, upper);
        FixedPoint.addTo(download(sumCells, 2 * p), eSum, columnSums);
    }

    @Override
    public synchronized RowBlock project(RowBlock block, double[] loadings, int k, double[] meanV) {
        int rows = block.nRows();
        DeviceBlocks b = upload(block, true, null);
        long loadingBytes = 8L * loadings.length;
        long outOffset = loadingBytes + 8L * k;
        if (loadingsOnDevice != loadings) {
            workspace(outOffset + 4L * b.rowCapacity() * k);
            b.doubles(loadings, 0, loadings.length, workspace, 0);
            b.doubles(meanV, 0, k, workspace, loadingBytes);
            loadingsOnDevice = loadings;
        }
        CUdeviceptr base = CudaMemory.pointer(workspace);
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

    /** Frees the buffers; the account then holds nothing. */
    @Override
    public synchronized void close() {
        cuCtxSetCurrent(context);
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

    /** Uploads into the block buffers, allocating them the first time only. */
    private DeviceBlocks upload(RowBlock block, boolean withIndices, double[] factors) {
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
