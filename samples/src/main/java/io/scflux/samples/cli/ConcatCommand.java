/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.ops.concat.Concat;
import io.scflux.ops.concat.ConcatOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
final class ConcatCommand implements Callable<Integer> {

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
            names = "--join",
            paramLabel = "inner|outer",
            defaultValue = "inner",
            description = "Genes to keep (default: ${DEFAULT-VALUE}).")
    ConcatOptions.Join join;

    @Option(names = "--label", paramLabel = "COL", description = "obs column naming each cell's file by its key.")
    String label;

    @Option(names = "--keys", split = ",", paramLabel = "KEY", description = "One key per file (default: 0,1,...).")
    List<String> keys;

    @Option(
            names = "--index-unique",
            paramLabel = "SEP",
            description = "Append SEP and the file's key to every cell name.")
    String indexUnique;

    @Option(
            names = "--fill-value",
            paramLabel = "X",
            description = "Value of the genes a file lacks in an outer join (default: implicit zeros).")
    Float fillValue;

    @Option(
            names = "--compression",
            paramLabel = "none|gzip",
            defaultValue = "none",
            description = "Compression of the written datasets (default: ${DEFAULT-VALUE}).")
    WriteOptions.Compression compression;

    @Override
    public Integer call() throws IOException {
        GlobalOptions global = GlobalOptions.of(spec);
        for (Path in : inputs) {
            GlobalOptions.readable(in);
        }
        GlobalOptions.output(spec, output, inputs);
        long started = System.nanoTime();
        List<AnnData> data = new ArrayList<>(inputs.size());
        for (Path in : inputs) {
            data.add(global.read(in));
        }
        AnnData result = Concat.concat(data, new ConcatOptions(join, label, keys, indexUnique, fillValue));
        if (result.x() != null) {
            result.setX(global.progress(spec.commandLine().getErr()).track(result.x()));
        }
        H5ad.write(
                        result,
                        output,
                        WriteOptions.DEFAULT
                                .withCompression(compression)
                                .withPlan(global.planTarget())
                                .withExecution(global.execution()))
                .block();
        spec.commandLine()
                .getOut()
                .printf(
                        "wrote %s: %d cells x %d genes from %d files in %.1f s%n",
                        output, result.nObs(), result.nVars(), inputs.size(), (System.nanoTime() - started) / 1e9);
        return 0;
    }
}
