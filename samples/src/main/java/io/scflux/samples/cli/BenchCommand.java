/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code scflux bench}: measurements that print one JSON line each, for scripts to compare with a reference. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Measures scflux; prints one JSON line.",
        subcommands = {ReadBench.class, PackBench.class})
final class BenchCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand");
    }
}
