/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.parameter.Parameter;
import io.scflux.samples.report.StepCatalogJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command line and the printed catalog (what the Python package reads, and the service answers at
 * {@code GET /steps}) agree for every step and parameter: each step command takes exactly its catalog parameters as
 * options (besides the command line's own: input and output, the global options, --subset, --csv), with the catalog's default in its
 * description, and the JSON lists the same parameters with the same defaults, kinds and bounds. The service's side is
 * {@code io.scflux.samples.service.StepCatalogServiceTest}.
 */
class StepCatalogAgreementTest {

    /** The options every operator command has that are no step parameter: where the data comes from and goes. */
    private static final Set<String> COMMAND_LINE_OWN = Set.of(
            "--output",
            "--in-place",
            "--annotations-only",
            "--compression",
            "--engine",
            "--master",
            "--conf",
            "--spark-timeout",
            "--help",
            "--version",
            "--subset",
            "--csv");

    private static final JsonNode CATALOG = printed();

    private static JsonNode printed() {
        try {
            return new ObjectMapper().readTree(StepCatalogJson.json());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static Stream<CatalogStep> steps() {
        return StepCatalog.steps().stream();
    }

    private static JsonNode printedStep(CatalogStep step) {
        for (JsonNode s : CATALOG.get("steps")) {
            if (s.get("function").asText().equals(step.function())) {
                return s;
            }
        }
        throw new AssertionError("the printed catalog has no " + step.function());
    }

    /** The longest name of each option of {@code command} that is a step parameter's, and its description. */
    private static Map<String, String> stepOptions(String command) {
        CommandLine sub = Scflux.commandLine().getSubcommands().get(command);
        assertNotNull(sub, "the command line has a command " + command);
        Map<String, String> out = new TreeMap<>();
        for (OptionSpec o : sub.getCommandSpec().options()) {
            String name = Arrays.stream(o.names())
                    .max((a, b) -> a.length() - b.length())
                    .orElseThrow();
            if (!o.inherited() && !COMMAND_LINE_OWN.contains(name)) {
                out.put(o.longestName().startsWith("--qc-var") ? "--qc-vars" : name, String.join(" ", o.description()));
            }
        }
        return out;
    }

    @Test
    void theCatalogListsEveryStepCommandOnce() {
        Set<String> commands = new TreeSet<>();
        Set<String> functions = new TreeSet<>();
        for (JsonNode s : CATALOG.get("steps")) {
            assertTrue(commands.add(s.get("command").asText()), s.toString());
            assertTrue(functions.add(s.get("function").asText()), s.toString());
        }
        assertEquals(
                Set.of(
                        "concat",
                        "calculate_qc_metrics",
                        "filter_cells",
                        "filter_genes",
                        "normalize_total",
                        "log1p",
                        "highly_variable_genes",
                        "scale",
                        "pca",
                        "neighbors",
                        "umap",
                        "leiden",
                        "rank_genes_groups",
                        "pseudobulk"),
                functions);
        assertEquals(StepCatalogJson.FORMAT, CATALOG.get("format").asInt());
    }

    @ParameterizedTest
    @MethodSource("steps")
    void theCommandsOptionsAreTheCatalogsParameters(CatalogStep step) {
        JsonNode printed = printedStep(step);
        Map<String, String> options = stepOptions(step.command());
        Map<String, JsonNode> byOption = new TreeMap<>();
        printed.get("parameters").forEach(p -> byOption.put(p.get("option").asText(), p));
        assertEquals(byOption.keySet(), options.keySet(), step.function() + ": the command's step options");
        for (Parameter<?> p : step.parameters()) {
            JsonNode json = byOption.get(StepOptions.name(p));
            assertEquals(p.name(), json.get("name").asText());
            assertEquals(p.kind().wireName(), json.get("kind").asText());
            assertEquals(p.isRequired(), json.get("required").asBoolean(), p.name());
            assertEquals(p.choices(), strings(json.get("choices")), p.name());
            assertEquals(p.doc(), json.get("doc").asText(), p.name());
            assertEquals(shown(p.defaultValue()), shown(fromJson(json.get("default"))), p.name() + "'s default");
            String description = options.get(StepOptions.name(p));
            assertTrue(description.startsWith(p.doc().replaceAll("\\.$", "")), description);
            if (p.defaultValue() != null && !p.isRequired()) {
                Object d = fromJson(json.get("default"));
                String expected = d instanceof List<?> l
                        ? (l.isEmpty()
                                ? "none"
                                : String.join(
                                        ",", l.stream().map(String::valueOf).toList()))
                        : shown(d);
                assertTrue(description.contains(" (default: " + expected + ")."), p.name() + ": " + description);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("steps")
    void everyDefaultIsAcceptedAndEveryBoundRefusedByTheCommandsParameters(CatalogStep step) {
        for (JsonNode p : printedStep(step).get("parameters")) {
            Parameter<?> parameter = step.parameter(p.get("name").asText());
            Object value = fromJson(p.get("default"));
            if (value != null) {
                assertEquals(shown(parameter.defaultValue()), shown(parameter.parse(value)), parameter.name());
            }
            if (!p.get("min").isNull() && p.get("min_exclusive").asBoolean()) {
                Object atMin = parameter.kind() == Parameter.Kind.INT
                        ? (Object) p.get("min").asInt()
                        : p.get("min").asDouble();
                assertRefused(parameter, atMin);
            } else if (!p.get("min").isNull()) {
                double below = p.get("min").asDouble() - 1;
                assertRefused(
                        parameter,
                        parameter.kind() == Parameter.Kind.INT
                                ? (Object) (int) below
                                : parameter.kind() == Parameter.Kind.INT_LIST ? List.of((int) below) : below);
            }
        }
    }

    private static void assertRefused(Parameter<?> parameter, Object value) {
        try {
            parameter.parse(value);
        } catch (io.scflux.ops.parameter.InvalidParameterException e) {
            assertEquals(parameter.name(), e.parameter());
            assertTrue(e.getMessage().startsWith(parameter.name()), e.getMessage());
            return;
        }
        throw new AssertionError(parameter.name() + " accepted " + value);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }

    /** A JSON value as the Java value a parameter takes. */
    private static Object fromJson(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (v.isArray()) {
            List<Object> out = new ArrayList<>();
            v.forEach(e -> out.add(fromJson(e)));
            return out;
        }
        return v.isBoolean() ? v.booleanValue() : v.isNumber() ? v.numberValue() : v.asText();
    }

    /** A value as text, numbers by their double value, so that 3 and 3.0 compare equal. */
    private static String shown(Object v) {
        if (v instanceof List<?> l) {
            return l.stream().map(StepCatalogAgreementTest::shown).toList().toString();
        }
        return v instanceof Number n ? StepOptions.number(n.doubleValue()) : String.valueOf(v);
    }
}
