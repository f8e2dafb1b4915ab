/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuInit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jcuda.CudaException;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.JCudaDriver;
import org.jspecify.annotations.Nullable;

/**
 * Whether this machine can run the CUDA backend, asked once through JCuda's driver API and remembered: without a
 * driver the first touch of {@code JCudaDriver} fails in class initialization ({@code libcuda.so.1} missing) and every
 * later touch with {@code NoClassDefFoundError}, so the answer, and its reason, must be kept.
 */
final class CudaProbe {

    /** The kernels are PTX for compute capability 8.0; older devices cannot load them. */
    static final int MIN_MAJOR = 8;

    private static final Pattern MISSING_LIBRARY =
            Pattern.compile("(lib[\\w.-]+: cannot open shared object file[^\\n]*)");

    private CudaProbe() {}

    /** Why CUDA cannot run here, or null when device 0 can. */
    static @Nullable String unavailableReason() {
        return Holder.REASON;
    }

    /** Initialized on first use only: a machine that never asks never loads the natives. */
    private static final class Holder {
        static final @Nullable String REASON = probe();
    }

    private static @Nullable String probe() {
        try {
            JCudaDriver.setExceptionsEnabled(true);
            cuInit(0);
            int[] count = new int[1];
            cuDeviceGetCount(count);
            if (count[0] == 0) {
                return "the CUDA driver reports no device";
            }
            CUdevice device = new CUdevice();
            cuDeviceGet(device, 0);
            int[] major = new int[1];
            cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
            if (major[0] < MIN_MAJOR) {
                return "device 0 has compute capability " + major[0] + ".x, the kernels need " + MIN_MAJOR + ".0";
            }
            return null;
        } catch (LinkageError e) {
            return "the CUDA driver could not be loaded: " + firstLine(e);
        } catch (CudaException e) {
            return "the CUDA driver failed: " + firstLine(e);
        }
    }

    /**
     * One line out of JCuda's multi-line loader message: the shared library that could not be opened
     * ({@code libcuda.so.1: cannot open shared object file...}) when it says so, else its first line.
     */
    static String firstLine(Throwable e) {
        String message = String.valueOf(e.getMessage());
        Matcher m = MISSING_LIBRARY.matcher(message);
        return m.find()
                ? m.group(1)
                : message.lines().findFirst().orElse(e.getClass().getName());
    }
}
