/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

/**
 * The kernels of {@code src/main/cuda/kernels.cu}, loaded from the PTX shipped in the jar with
 * {@code cuModuleLoadData} (driver API only: no NVRTC, cuBLAS or cuSPARSE), and their launches. Each launch
 * waits for the kernel, so a block's results are complete when a call returns.
 */
final class Kernels {

    static final String PTX = "/io/scflux/device/kernels.ptx";
    private static final int THREADS = 256;
    private static final int MAX_GRID = 1 << 16;

    private final CUfunction normalizeLog1p = new CUfunction();
    private final CUfunction columnSums = new CUfunction();
    private final CUfunction gram = new CUfunction();
    private final CUfunction project = new CUfunction();
    private final CUfunction reindexCount = new CUfunction();
    private final CUfunction rowPointers = new CUfunction();
    private final CUfunction reindexRows = new CUfunction();

    /** Loads the module into the current context. */
    Kernels() {
        CUmodule module = new CUmodule();
        cuModuleLoadData(module, ptx());
        cuModuleGetFunction(normalizeLog1p, module, "normalize_log1p");
        cuModuleGetFunction(columnSums, module, "column_sums");
        cuModuleGetFunction(gram, module, "gram");
        cuModuleGetFunction(project, module, "project");
        cuModuleGetFunction(reindexCount, module, "reindex_count");
        cuModuleGetFunction(rowPointers, module, "row_pointers");
        cuModuleGetFunction(reindexRows, module, "reindex_rows");
    }

    /** The PTX text, NUL-terminated as cuModuleLoadData reads it. */
    static byte[] ptx() {
        try (InputStream in = Kernels.class.getResourceAsStream(PTX)) {
            if (in == null) {
                throw new IllegalStateException("the jar has no " + PTX + "; build flux-device with its resources");
            }
            byte[] text = in.readAllBytes();
            return Arrays.copyOf(text, text.length + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + PTX, e);
        }
    }

    void normalizeLog1p(int nRows, DeviceBlocks b, boolean single, double lnBase) {
        launch(
                normalizeLog1p,
                nRows,
                Pointer.to(
                        ints(nRows),
                        ptr(b.indptr),
                        ptr(b.values),
                        ptr(b.factors),
                        ptr(b.out),
                        ints(single ? 1 : 0),
                        Pointer.to(new double[] {lnBase})));
    }

    void columnSums(
            int nnz, DeviceBlocks b, boolean float32Squares, int eSum, int eSq, CUdeviceptr sum, CUdeviceptr squares) {
        launch(
                columnSums,
                nnz,
                Pointer.to(
                        ints(nnz),
                        ptr(b.indices),
                        ptr(b.values),
                        ints(float32Squares ? 1 : 0),
                        ints(eSum),
                        ints(eSq),
                        Pointer.to(sum),
                        Pointer.to(squares)));
    }

    void gram(
            int nRows, int nnz, DeviceBlocks b, int p, int eGram, int eSum, CUdeviceptr upper, CUdeviceptr columnSums) {
        launch(
                gram,
                nnz,
                Pointer.to(
                        ints(nRows),
                        ints(nnz),
                        ptr(b.indptr),
                        ptr(b.indices),
                        ptr(b.values),
                        ints(p),
                        ints(eGram),
                        ints(eSum),
                        Pointer.to(upper),
                        Pointer.to(columnSums)));
    }

    void project(int nRows, DeviceBlocks b, int k, CUdeviceptr loadings, CUdeviceptr meanV, CUdeviceptr out) {
        launch(
                project,
                (long) nRows * k,
                Pointer.to(
                        ints(nRows),
                        ptr(b.indptr),
                        ptr(b.indices),
                        ptr(b.values),
                        ints(k),
                        Pointer.to(loadings),
                        Pointer.to(meanV),
                        Pointer.to(out)));
    }

    /** Each row's entry count once re-indexed by the map {@code to}, with {@code filled} columns, into ptr[r + 1]. */
    void reindexCount(int nRows, DeviceArrays in, CUdeviceptr to, int filled, DeviceBuffer outPtr) {
        launch(
                reindexCount,
                nRows,
                Pointer.to(ints(nRows), ptr(in.indptr), ptr(in.indices), Pointer.to(to), ints(filled), ptr(outPtr)));
    }

    /** The row counts in {@code ptr[1..nRows]} summed into row pointers, by one thread. */
    void rowPointers(int nRows, DeviceBuffer ptr) {
        launch(rowPointers, 1, Pointer.to(ints(nRows), ptr(ptr)));
    }

    /** Each row of {@code in} re-indexed into {@code out}, whose row pointers are computed. */
    void reindexRows(
            int nRows,
            DeviceArrays in,
            CUdeviceptr to,
            CUdeviceptr missing,
            int nMissing,
            boolean keepsOrder,
            float fill,
            DeviceArrays out) {
        launch(
                reindexRows,
                nRows,
                Pointer.to(
                        ints(nRows),
                        ptr(in.indptr),
                        ptr(in.indices),
                        ptr(in.values),
                        Pointer.to(to),
                        Pointer.to(missing),
                        ints(nMissing),
                        ints(keepsOrder ? 1 : 0),
                        Pointer.to(new float[] {fill}),
                        ptr(out.indptr),
                        ptr(out.indices),
                        ptr(out.values)));
    }

    private static void launch(CUfunction f, long work, Pointer params) {
        if (work == 0) {
            return;
        }
        int grid = (int) Math.min(MAX_GRID, (work + THREADS - 1) / THREADS);
        cuLaunchKernel(f, grid, 1, 1, THREADS, 1, 1, 0, null, params, null);
        cuCtxSynchronize();
    }

    private static Pointer ints(int v) {
        return Pointer.to(new int[] {v});
    }

    private static Pointer ptr(DeviceBuffer b) {
        return Pointer.to(CudaMemory.pointer(b));
    }
}
