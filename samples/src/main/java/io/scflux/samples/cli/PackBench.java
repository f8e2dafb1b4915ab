/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.BlockPlan;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowReader;
import io.scflux.core.pack.PackedMatrix;
import io.scflux.io.FileMatrix;
import io.scflux.io.H5ad;
import io.scflux.samples.report.JsonLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scflux bench pack}: packs X into a {@link PackedMatrix} and reports, on one core, the compression ratio
 * against CSR float32 + int32 and the unpacking rate against re-reading the same blocks from the file (which, just
 * read, sits in the page cache): what the block cache trades.
 */
@Command(
        name = "pack",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Packs X and prints one JSON line: the compression ratio against CSR float32 + int32, and on one "
                + "core nonzeros/s unpacking the blocks against re-reading them from the file (best of --repeat).")
final class PackBench implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The .h5ad file.")
    private Path file;

    @Option(
            names = "--repeat",
            paramLabel = "R",
            defaultValue = "3",
            description = "Passes of each kind; the best is reported (default: ${DEFAULT-VALUE}).")
    private int repeat;

    @Override
    public Integer call() throws IOException {
        if (repeat < 1) {
            throw new ParameterException(spec.commandLine(), "--repeat must be at least 1, got " + repeat);
        }
        PlanTarget target = GlobalOptions.of(spec).planTarget();
        FileMatrix x = H5ad.openMatrix(
                GlobalOptions.readable(file), "/X", GlobalOptions.of(spec).settings());
        BlockPlan plan = x.plan(target);
        long started = System.nanoTime();
        PackedMatrix packed = PackedMatrix.from(x, target);
        double packSeconds = (System.nanoTime() - started) / 1e9;
        long nnz = x.info().nnz();
        long csrBytes = 8 * nnz + 4 * (x.nRows() + 1);
        double unpack = Double.MAX_VALUE;
        double reread = Double.MAX_VALUE;
        for (int i = 0; i < repeat; i++) {
            unpack = Math.min(unpack, pass(packed.open(), plan));
            reread = Math.min(reread, pass(x.open(), plan));
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tool", "scflux");
        r.put("file", file.toString());
        r.put("n_obs", x.nRows());
        r.put("n_vars", x.nCols());
        r.put("nnz", nnz);
        r.put("blocks", plan.size());
        r.put("csr_bytes", csrBytes);
        r.put("packed_bytes", packed.sizeInBytes());
        r.put("compression_ratio", (double) csrBytes / packed.sizeInBytes());
        r.put("pack_s", packSeconds);
        r.put("unpack_nnz_per_s", nnz / unpack);
        r.put("reread_nnz_per_s", nnz / reread);
        r.put("unpack_vs_reread", reread / unpack);
        spec.commandLine().getOut().println(JsonLine.of(r));
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Seconds to read every block of {@code plan} through {@code reader} on this thread. */
    private static double pass(RowReader reader, BlockPlan plan) {
        long checksum = 0;
        long started = System.nanoTime();
        try (reader) {
            for (int b = 0; b < plan.size(); b++) {
                checksum += reader.read(b, plan.rowStart(b), plan.rowEnd(b)).nnz();
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (checksum != plan.totalNnz()) {
            throw new IllegalStateException("read " + checksum + " entries, the plan holds " + plan.totalNnz());
        }
        return seconds;
    }
}
