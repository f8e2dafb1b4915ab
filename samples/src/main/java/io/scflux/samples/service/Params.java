/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.scflux.ops.CatalogStep;
import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.Parameter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code params} object of a job request, read by the steps whose catalog parameters name them; a value of the
 * wrong type or range (as the parameter says), or a name no step reads, is an {@link InvalidField} naming
 * {@code params.NAME}. A step given as an object has its own
 * params ({@code steps[i].params}), looked up first.
 */
final class Params {

    private final JsonNode node;
    private final String field;
    private final @Nullable Params shared;
    private final Set<String> read = new HashSet<>();

    /** The job's {@code params} (null or absent: none). */
    Params(JsonNode node) {
        this(node, "params", null);
    }

    /**
     * {@code node}, the object at {@code field}, whose values are looked up before those of {@code shared} (a step's
     * own params over the job's).
     */
    private Params(JsonNode node, String field, @Nullable Params shared) {
        if (node != null && !node.isNull() && !node.isObject()) {
            throw new InvalidField(field, field + " must be a JSON object");
        }
        this.node = node;
        this.field = field;
        this.shared = shared;
    }

    /** A step's own params ({@code steps[i].params}), read before these. */
    Params forStep(JsonNode stepParams, String stepField) {
        return new Params(stepParams, stepField, this);
    }

    /**
     * The values of {@code step}'s parameters here or in the shared params, as JSON gives them (numbers, bools,
     * strings, lists of them), for the parameters to convert and check; each is marked read.
     */
    Arguments arguments(CatalogStep step) {
        Map<String, Object> given = new LinkedHashMap<>();
        for (Parameter<?> p : step.parameters()) {
            JsonNode v = value(p.name());
            if (v != null) {
                given.put(p.name(), plain(v));
            }
        }
        return Arguments.of(given);
    }

    /** {@code v} as a Java value: a Number, Boolean, String or List of them; an object stays a JsonNode (refused). */
    private static Object plain(JsonNode v) {
        if (v.isIntegralNumber() || v.isNumber()) {
            return v.numberValue();
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isArray()) {
            List<Object> out = new ArrayList<>();
            v.forEach(e -> out.add(plain(e)));
            return out;
        }
        return v;
    }

    /** Fails on the first parameter no step read. */
    void checkAllRead() {
        if (node == null || node.isNull()) {
            return;
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!read.contains(name)) {
                throw new InvalidField(
                        fieldOf(name),
                        shared == null
                                ? "no step of this job reads params." + name
                                : "this step does not read " + name);
            }
        }
    }

    /** The value of {@code name} here, else in the shared params; marks it read where it was found. */
    private @Nullable JsonNode value(String name) {
        read.add(name);
        JsonNode v = node == null ? null : node.get(name);
        if ((v == null || v.isNull()) && shared != null) {
            return shared.value(name);
        }
        return v == null || v.isNull() ? null : v;
    }

    /**
     * Where {@code name} is, for an error: this object's field, or the shared one's when only it has it; for null (a
     * fault of no one parameter), this object's field.
     */
    String fieldOf(@Nullable String name) {
        if (name == null) {
            return field;
        }
        boolean here = node != null && node.has(name) && !node.get(name).isNull();
        return here || shared == null ? field + "." + name : shared.fieldOf(name);
    }
}
