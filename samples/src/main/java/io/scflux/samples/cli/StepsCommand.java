/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.Parameter;
import io.scflux.ops.StepCatalog;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code scflux steps}: the step catalog ({@link StepCatalog}), one line per step, or with {@code --json} as the one
 * JSON document the Python package reads to derive its parameter checks and command-line arguments (and the service
 * answers at {@code GET /steps}): {@code {"format": 1, "steps": [{"function", "command", "service", "doc",
 * "parameters": [{"name", "option", "kind", "default", "required", "min", "min_exclusive", "max", "max_exclusive",
 * "except", "choices", "unsupported", "doc"}]}]}}; numbers as JSON numbers, an infinite default as {@code Infinity} (which Python's
 * {@code json} reads).
 */
@Command(
        name = "steps",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Lists the steps scflux runs, by scanpy's function name and command name, with their parameters; with "
                    + "--json, the catalog the Python package and the service are made from."
        })
final class StepsCommand implements Callable<Integer> {

    /** The version of the JSON document's layout; a reader refuses another. */
    static final int FORMAT = 1;

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(JsonGenerator.Feature.QUOTE_NON_NUMERIC_NUMBERS, false);

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print the catalog as one JSON document.")
    boolean json;

    @Override
    public Integer call() {
        if (json) {
            spec.commandLine().getOut().println(json());
        } else {
            for (CatalogStep s : StepCatalog.steps()) {
                spec.commandLine()
                        .getOut()
                        .printf("%-18s %-22s %s%n", s.command(), s.function(), names(s.parameters()));
            }
        }
        return 0;
    }

    /** The catalog as the JSON document {@code scflux steps --json} prints. */
    static String json() {
        ObjectNode root = JSON.createObjectNode().put("format", FORMAT);
        ArrayNode steps = root.putArray("steps");
        for (CatalogStep s : StepCatalog.steps()) {
            ObjectNode step = steps.addObject()
                    .put("function", s.function())
                    .put("command", s.command())
                    .put("service", s.command().replace('-', '_'))
                    .put("doc", s.doc());
            ArrayNode parameters = step.putArray("parameters");
            for (Parameter<?> p : s.parameters()) {
                ObjectNode o = parameters
                        .addObject()
                        .put("name", p.name())
                        .put("option", StepOptions.name(p))
                        .put("kind", p.kind().wireName());
                o.set("default", JSON.valueToTree(p.defaultValue()));
                o.put("required", p.isRequired());
                o.put("min", p.min()).put("min_exclusive", p.minExclusive());
                o.put("max", p.max()).put("max_exclusive", p.maxExclusive());
                o.put("except", p.excluded());
                ArrayNode choices = o.putArray("choices");
                p.choices().forEach(choices::add);
                ArrayNode unsupported = o.putArray("unsupported");
                p.unsupportedValues().forEach(unsupported::add);
                o.put("doc", p.doc());
            }
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of {@code parameters}, for a line. */
    static String names(List<Parameter<?>> parameters) {
        return parameters.stream().map(Parameter::name).collect(Collectors.joining(", "));
    }
}
