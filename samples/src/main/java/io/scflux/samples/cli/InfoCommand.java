/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.FileMatrix;
import io.scflux.samples.report.JsonLine;
import io.scflux.samples.report.Summary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scflux info}: what an {@code .h5ad} holds, like anndata's repr (shape, how X is stored, obs and var columns
 * with their types, the keys of obsm, varm, layers, obsp, varp and uns), or the same as one JSON object with the sum
 * of X, which streams the whole matrix.
 */
@Command(
        name = "info",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Prints what an .h5ad holds: shape, X encoding, dtype, nnz, index types and compression, obs "
                    + "and var columns with their types, and the keys of obsm, varm, layers, obsp, varp and uns.",
            "With --json, prints one JSON object that also has x_sum, the sum of all X values (this reads all of X; "
                    + "the sum does not depend on --threads)."
        })
final class InfoCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "FILE", description = "The .h5ad file.")
    private Path file;

    @Option(names = "--json", description = "Print one JSON object, with x_sum.")
    private boolean json;

    @Override
    public Integer call() throws IOException {
        GlobalOptions global = GlobalOptions.of(spec);
        PlanTarget target = global.planTarget();
        Execution execution = global.execution();
        AnnData data = global.read(file);
        PrintWriter out = spec.commandLine().getOut();
        BlockSource x = data.x();
        if (json) {
            Map<String, Object> report = Summary.of(data);
            if (x != null) {
                BlockSource tracked = global.progress(spec.commandLine().getErr())
                        .track(global.cache(false).cached(x));
                report.put(
                        "x_sum",
                        Totals.of(tracked, tracked.plan(target), execution).sum());
            } else {
                report.put("x_sum", null);
            }
            out.println(JsonLine.of(report));
        } else {
            out.print(Summary.text(data));
        }
        out.flush();
        global.printStats(
                spec.commandLine().getErr(),
                x == null ? 0 : x.plan(target).size(),
                x instanceof FileMatrix m ? m.stats().blocksRead() : 0);
        return 0;
    }
}
