/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.io.FileMatrix;
import io.scflux.io.H5ad;
import io.scflux.io.MatrixInfo;
import io.scflux.samples.report.JsonLine;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scflux bench read}: streams every block of X and reports stored entries/s and MB/s, MB being the bytes of
 * the stored values and indices (as the file's dtypes hold them), so that {@code samples/bench/h5py_read.py}, which
 * reads the same row slices with h5py, reports comparable numbers.
 */
@Command(
        name = "read",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Streams all blocks of X (sums the values) and prints one JSON line: nnz_per_s and mb_per_s "
                    + "of the best of --repeat passes, MB being the stored bytes of values and indices.",
            "samples/bench/h5py_read.py reads the same row slices with h5py and prints the same keys."
        })
final class ReadBench implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The .h5ad file.")
    private Path file;

    @Option(
            names = "--repeat",
            paramLabel = "R",
            defaultValue = "1",
            description = "Passes over X; the best is reported (default: ${DEFAULT-VALUE}).")
    private int repeat;

    @Option(
            names = "--element",
            paramLabel = "PATH",
            defaultValue = "/X",
            description = "The matrix element to read (default: ${DEFAULT-VALUE}).")
    private String element;

    @Override
    public Integer call() throws IOException {
        if (repeat < 1) {
            throw new ParameterException(spec.commandLine(), "--repeat must be at least 1, got " + repeat);
        }
        GlobalOptions global = GlobalOptions.of(spec);
        Execution execution = global.execution();
        PlanTarget target = global.planTarget();
        long opened = System.nanoTime();
        FileMatrix x = H5ad.openMatrix(GlobalOptions.readable(file), element, global.settings());
        BlockSource tracked = global.progress(spec.commandLine().getErr()).track(x);
        BlockPlan plan = tracked.plan(target);
        double planSeconds = (System.nanoTime() - opened) / 1e9;
        MatrixInfo info = x.info();
        List<Double> seconds = new ArrayList<>();
        Totals totals = null;
        for (int i = 0; i < repeat; i++) {
            long started = System.nanoTime();
            totals = Totals.of(tracked, plan, execution);
            seconds.add((System.nanoTime() - started) / 1e9);
        }
        double best = seconds.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        long stored = info.nnz();
        long bytes = stored
                * (info.dtype().size()
                        + (info.indicesDtype() == null ? 0 : info.indicesDtype().size()));
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("tool", "scflux");
        r.put("file", file.toString());
        r.put("encoding", info.encoding());
        r.put("compression", info.compression());
        r.put("threads", execution.threads());
        r.put("chunk_nnz", plan.target().chunkNnz());
        r.put("blocks", plan.size());
        r.put("n_obs", x.nRows());
        r.put("n_vars", x.nCols());
        r.put("nnz", stored);
        r.put(
                "x_sum",
                Objects.requireNonNull(totals, "a pass, --repeat being at least 1")
                        .sum());
        r.put("plan_s", planSeconds);
        r.put("seconds", seconds);
        r.put("nnz_per_s", stored / best);
        r.put("mb_per_s", bytes / best / 1e6);
        spec.commandLine().getOut().println(JsonLine.of(r));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
