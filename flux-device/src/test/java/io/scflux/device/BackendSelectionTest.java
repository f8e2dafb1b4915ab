/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.HostBackend;
import io.scflux.core.backend.BackendChoice;
import io.scflux.core.backend.Backends;
import io.scflux.core.test.Logs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Without a usable GPU (what CI has): auto falls back, logging one line, cuda fails with the probe's reason. */
class BackendSelectionTest {

    private static String reason() {
        String reason = CudaProbe.unavailableReason();
        assumeTrue(reason != null, "a usable CUDA device is present; the gpu-tagged tests cover it");
        return reason;
    }

    @Test
    void autoWithoutAGpuSaysSoOnceAndRunsOnTheHost() {
        String reason = reason();
        List<String> lines = Logs.during(
                () -> assertSame(HostBackend.INSTANCE, Backends.select(BackendChoice.AUTO, 256L << 20)), "CUDA");
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(
                lines.get(0)
                        .endsWith(" INFO " + Backends.class.getName() + " - no usable CUDA device (" + reason
                                + "); running on the host"),
                lines.get(0));
    }

    @Test
    void cudaWithoutAGpuIsAClearError() {
        String reason = reason();
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> Backends.select(BackendChoice.CUDA, 256L << 20));
        assertEquals("--device cuda: no usable CUDA device (" + reason + ")", e.getMessage());
    }

    @Test
    void theProbeRemembersItsAnswer() {
        String reason = reason();
        assertSame(reason, CudaProbe.unavailableReason());
        assertTrue(reason.contains("CUDA"), reason);
        assertEquals(1, reason.lines().count(), reason);
    }

    @Test
    void jcudasLoaderMessageBecomesOneLine() {
        String jcuda = "Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"\n"
                + "Operating system name: Linux\nStack trace from the attempt to load the library as a resource:\n"
                + "java.lang.UnsatisfiedLinkError: /tmp/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: cannot "
                + "open shared object file: No such file or directory\n\tat java.base/...";
        assertEquals(
                "libcuda.so.1: cannot open shared object file: No such file or directory",
                CudaProbe.firstLine(new UnsatisfiedLinkError(jcuda)));
        assertEquals("CUDA_ERROR_NO_DEVICE", CudaProbe.firstLine(new jcuda.CudaException("CUDA_ERROR_NO_DEVICE")));
    }

    @Test
    void cpuNeverProbes() {
        List<String> lines = Logs.during(() -> assertSame(HostBackend.INSTANCE, Backends.select(BackendChoice.CPU, 1)));
        assertEquals(List.of(), lines);
    }
}
