/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.concat.Concat;
import io.scflux.ops.parameter.Parameter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scflux concat}: anndata's {@code concat} of several .h5ad files along obs ({@link Concat}), written block by
 * block: each input's X is read once, its genes re-indexed per block, so memory holds obs and var, not X.
 */
@Command(
        name = "concat",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Stacks the cells of several .h5ad files as anndata's concat does: --join inner keeps the genes "
                    + "every file has (first file's order), outer all of them (sorted, zeros where a file lacks one); "
                    + "obs columns merged, var annotations dropped, layers and obsm kept where every file has them.",
            "X is streamed: no file is loaded whole."
        })
final class ConcatCommand implements Callable<Integer>, StepCommand {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "2..*", paramLabel = "IN", description = "The .h5ad files, in order.")
    List<Path> inputs;

    @Option(
            names = {"-o", "--output"},
            required = true,
            paramLabel = "OUT",
            description = "The .h5ad to write.")
    Path output;

    @Option(
            names = "--compression",
            paramLabel = "none|gzip",
            defaultValue = "none",
            description = "Compression of the written datasets (default: ${DEFAULT-VALUE}).")
    WriteOptions.Compression compression;

    /** The catalog's concat, whose parameters are this command's options ({@link StepOptions}). */
    private static final CatalogStep STEP =
            Objects.requireNonNull(StepCatalog.byCommand("concat"), "the catalog has concat");

    @Override
    public List<Parameter<?>> parameters() {
        return STEP.parameters();
    }

    @Override
    public Integer call() throws IOException {
        GlobalOptions global = GlobalOptions.of(spec);
        CatalogStep.Combined concat = STEP.combine(StepOptions.read(spec, parameters()));
        for (Path in : inputs) {
            GlobalOptions.readable(in);
        }
        GlobalOptions.output(spec, output, inputs);
        long started = System.nanoTime();
        List<AnnData> data = new ArrayList<>(inputs.size());
        for (Path in : inputs) {
            data.add(global.read(in));
        }
        AnnData result = concat.apply(data);
        if (result.x() != null) {
            result.setX(global.progress(spec.commandLine().getErr()).track(result.x()));
        }
        H5ad.write(result, output, global.writeOptions(compression, global.planTarget()))
                .block();
        spec.commandLine()
                .getOut()
                .printf(
                        "wrote %s: %d cells x %d genes from %d files in %.1f s%n",
                        output, result.nObs(), result.nVars(), inputs.size(), (System.nanoTime() - started) / 1e9);
        return 0;
    }
}
