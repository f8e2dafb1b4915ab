/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.parameter.Parameter;
import io.scflux.samples.report.StepCatalogJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The service and the printed catalog (what the Python package reads, and {@code GET /steps} answers) agree for every
 * step and parameter: each printed step is a job's step by its service name (and scanpy's), it reads exactly the
 * printed parameters (a parameter of another step is "read by no step of this job"), and a parameter given at its
 * printed default is read as the catalog's default. The command line's side is
 * {@code io.scflux.samples.cli.StepCatalogAgreementTest}.
 */
class StepCatalogServiceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static List<JsonNode> printedSteps() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(StepCatalogJson.json()).get("steps").forEach(out::add);
        return out;
    }

    private static Set<String> names(JsonNode step) {
        Set<String> out = new TreeSet<>();
        step.get("parameters").forEach(p -> out.add(p.get("name").asText()));
        return out;
    }

    @ParameterizedTest
    @MethodSource("printedSteps")
    void theServiceTakesEachPrintedStepWithExactlyItsParameters(JsonNode printed) throws IOException {
        CatalogStep step = Step.named(printed.get("service").asText(), "steps[0]");
        assertEquals(printed.get("function").asText(), step.function());
        assertSame(step, Step.named(printed.get("function").asText(), "steps[0]"));
        Set<String> own = names(printed);
        Set<String> every = new TreeSet<>();
        for (JsonNode s : printedSteps()) {
            every.addAll(names(s));
        }
        every.add("bogus");
        for (String name : every) {
            Params params = new Params(JSON.createObjectNode().put(name, 1));
            params.arguments(step);
            if (own.contains(name)) {
                params.checkAllRead();
            } else {
                InvalidField e = assertThrows(InvalidField.class, params::checkAllRead, name);
                assertEquals("params." + name, e.field());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("printedSteps")
    void aParameterAtItsPrintedDefaultIsReadAsTheCatalogsDefault(JsonNode printed) {
        CatalogStep step = Step.named(printed.get("service").asText(), "steps[0]");
        for (JsonNode p : printed.get("parameters")) {
            if (p.get("default").isNull()) {
                continue;
            }
            ObjectNode given = JSON.createObjectNode();
            given.set(p.get("name").asText(), p.get("default"));
            Parameter<?> parameter = step.parameter(p.get("name").asText());
            Object read = new Params(given).arguments(step).get(parameter);
            assertEquals(parameter.defaultValue(), read, parameter.name());
        }
    }
}
