/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.scflux.core.HostBackend;
import io.scflux.core.MemoryAccount;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.backend.BackendChoice;
import io.scflux.core.backend.Backends;
import io.scflux.core.test.Matrices;
import io.scflux.io.H5ad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --device} and {@code --device-mem-mb} on a machine without a usable GPU (CI): {@code auto} computes on the
 * host, saying so only in the log ({@link LoggingTest} reads it), {@code cuda} is a clear error, {@code --stats}
 * reports the backend and its bytes.
 */
class DeviceOptionTest {

    private static final String IN = Cli.FIXTURES.resolve("synth-3k.int64.h5ad").toString();
    private static final String NOTICE = "no usable CUDA device (";

    @TempDir
    Path tmp;

    @BeforeEach
    void noGpu() {
        assumeTrue(
                Backends.select(BackendChoice.AUTO, Long.MAX_VALUE).isHost(),
                "a usable CUDA device is present: samples/gpu-check.sh covers it");
    }

    private static CsrMatrix x(Path file) {
        var x = H5ad.read(file).x();
        return CsrMatrix.collect(x.blocks(), x.nCols()).block();
    }

    @Test
    void cpuRunsOnTheHostSilentlyAndStatsSaySo() throws Exception {
        Path out = tmp.resolve("cpu.h5ad");
        long peak = HostBackend.INSTANCE.memory().peak(); // the JVM's: 0 unless a test before reserved host buffers
        Cli c = Cli.run("--device", "cpu", "--stats", "log1p", IN, "-o", out.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertFalse(c.err().contains(NOTICE), c.err());
        JsonNode device = c.stats().get("device");
        assertEquals("host", device.get("backend").asText());
        assertEquals(0, device.get("reserved").asLong());
        assertEquals(peak, device.get("peak").asLong(), "log1p reserves no host buffer");
        assertEquals(MemoryAccount.host().cap(), device.get("cap").asLong(), "the host is capped at the memory budget");
    }

    @Test
    void autoWithoutAGpuRunsOnTheHostSilently() throws Exception {
        Path cpu = tmp.resolve("cpu.h5ad");
        Path auto = tmp.resolve("auto.h5ad");
        assertEquals(
                0, Cli.run("--device", "cpu", "log1p", IN, "-o", cpu.toString()).exitCode());
        Cli quiet = Cli.run("--stats", "--device-mem-mb", "256", "log1p", IN, "-o", auto.toString());
        assertEquals(0, quiet.exitCode(), quiet.err());
        assertFalse(quiet.err().contains(NOTICE), quiet.err());
        assertEquals("host", quiet.stats().get("device").get("backend").asText());
        Matrices.assertSame(x(cpu), x(auto));
    }

    @Test
    void cudaWithoutAGpuIsOneClearErrorAndWritesNothing() {
        Path out = tmp.resolve("cuda.h5ad");
        Cli c = Cli.run("--device", "cuda", "log1p", IN, "-o", out.toString());
        assertEquals(1, c.exitCode());
        List<String> lines = c.err().lines().toList();
        assertEquals(1, lines.size(), c.err());
        assertTrue(lines.get(0).startsWith("scflux: error: --device cuda: no usable CUDA device ("), c.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void badDeviceValuesAreUsageErrors() {
        Cli name = Cli.run(
                "--device", "gpu", "log1p", IN, "-o", tmp.resolve("x.h5ad").toString());
        assertEquals(2, name.exitCode());
        assertTrue(name.err().contains("device must be auto, cpu or cuda, got 'gpu'"), name.err());
        Cli cap = Cli.run(
                "--device-mem-mb", "0", "log1p", IN, "-o", tmp.resolve("x.h5ad").toString());
        assertEquals(2, cap.exitCode());
        assertTrue(cap.err().contains("--device-mem-mb must be at least 1, got 0"), cap.err());
    }
}
