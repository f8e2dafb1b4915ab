/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.StepCatalog;
import io.scflux.ops.parameter.Parameter;
import java.io.UncheckedIOException;

/**
 * The step catalog ({@link StepCatalog}) as the one JSON document that {@code scflux steps --json} prints, the service
 * answers at {@code GET /steps} and the Python package reads to derive its checks and command-line arguments:
 * {@code {"format": 1, "steps": [{"function", "command", "service", "doc", "parameters": [{"name", "option", "kind",
 * "default", "required", "min", "min_exclusive", "max", "max_exclusive", "except", "choices", "unsupported",
 * "doc"}]}]}}. Numbers are JSON numbers, but one that is not finite (max_disp's default, target_sum's bound) is the
 * string {@code "Infinity"}, so that the document is strict JSON (a browser's {@code JSON.parse} reads it).
 */
public final class StepCatalogJson {

    /** The version of the document's layout; a reader refuses another. */
    public static final int FORMAT = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    private StepCatalogJson() {}

    /**
     * @param parameter a catalog parameter
     * @return its command-line option: scanpy's name with {@code -} for {@code _}, {@code --n-top-genes}
     */
    public static String option(Parameter<?> parameter) {
        return "--" + parameter.name().replace('_', '-');
    }

    /**
     * @param step a catalog step
     * @return its name in a service job: the command's with {@code _} for {@code -}, {@code filter_cells}
     */
    public static String serviceName(CatalogStep step) {
        return step.command().replace('-', '_');
    }

    /** @return the catalog as the JSON document */
    public static String json() {
        ObjectNode root = JSON.createObjectNode().put("format", FORMAT);
        ArrayNode steps = root.putArray("steps");
        for (CatalogStep s : StepCatalog.steps()) {
            ObjectNode step = steps.addObject()
                    .put("function", s.function())
                    .put("command", s.command())
                    .put("service", serviceName(s))
                    .put("doc", s.doc());
            ArrayNode parameters = step.putArray("parameters");
            for (Parameter<?> p : s.parameters()) {
                ObjectNode o = parameters
                        .addObject()
                        .put("name", p.name())
                        .put("option", option(p))
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
}
