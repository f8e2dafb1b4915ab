/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.parameter.Parameter;
import io.scflux.samples.report.StepCatalogJson;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code scflux steps}: the step catalog ({@link StepCatalog}), one line per step, or with {@code --json} as the
 * document the Python package reads ({@link StepCatalogJson}).
 */
@Command(
        name = "steps",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Lists the steps scflux runs, by command name and scanpy's function name, with their parameters; with "
                    + "--json, the catalog the Python package and the service are made from."
        })
final class StepsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print the catalog as one JSON document.")
    boolean json;

    @Override
    public Integer call() {
        if (json) {
            spec.commandLine().getOut().println(StepCatalogJson.json());
            return 0;
        }
        for (CatalogStep s : StepCatalog.steps()) {
            String names = s.parameters().stream().map(Parameter::name).collect(Collectors.joining(", "));
            spec.commandLine().getOut().printf("%-18s %-22s %s%n", s.command(), s.function(), names);
        }
        return 0;
    }
}
