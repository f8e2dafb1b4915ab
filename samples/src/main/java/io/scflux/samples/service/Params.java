/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code params} object of a job request, read by the steps that use them; a value of the wrong type or range, or
 * a name no step reads, is an {@link InvalidField} naming {@code params.NAME}. A step given as an object has its own
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
     * Exactly one of {@code names} given, as {@code step} needs (scanpy's filters take one criterion per call): its
     * name, or an {@link InvalidField} naming the params.
     */
    String oneOf(String step, String... names) {
        String given = null;
        for (String name : names) {
            if (value(name) != null) {
                if (given != null) {
                    throw new InvalidField(
                            fieldOf(name),
                            "step " + step + " takes one of " + String.join(", ", names) + ", got " + given + " and "
                                    + name);
                }
                given = name;
            }
        }
        if (given == null) {
            throw new InvalidField(field, "step " + step + " needs one of " + String.join(", ", names));
        }
        return given;
    }

    /** A finite number, or null when absent. */
    @Nullable
    Double number(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.isNumber() || !Double.isFinite(v.doubleValue())) {
            throw new InvalidField(fieldOf(name), name + " must be a number, got " + v);
        }
        return v.doubleValue();
    }

    /** An integer of at least {@code min}, or null when absent. */
    @Nullable
    Integer integer(String name, int min) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.intValue() < min) {
            throw new InvalidField(fieldOf(name), name + " must be an integer of at least " + min + ", got " + v);
        }
        return v.intValue();
    }

    /** A JSON array of integers of at least {@code min} (empty: none), or null when absent. */
    @Nullable
    List<Integer> integers(String name, int min) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        if (v.isArray()) {
            for (JsonNode e : v) {
                if (!e.canConvertToInt() || !e.isIntegralNumber() || e.intValue() < min) {
                    out = null;
                    break;
                }
                out.add(e.intValue());
            }
        }
        if (!v.isArray() || out == null) {
            throw new InvalidField(
                    fieldOf(name), name + " must be an array of integers of at least " + min + ", got " + v);
        }
        return out;
    }

    /** A positive finite number, or null when absent. */
    @Nullable
    Double positive(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.isNumber() || !(v.doubleValue() > 0) || Double.isInfinite(v.doubleValue())) {
            throw new InvalidField(fieldOf(name), name + " must be a positive number, got " + v);
        }
        return v.doubleValue();
    }

    /** A string, or null when absent. */
    @Nullable
    String text(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.isTextual() || v.textValue().isEmpty()) {
            throw new InvalidField(fieldOf(name), name + " must be a non-empty string, got " + v);
        }
        return v.textValue();
    }

    /** A string that must be given. */
    String requiredText(String name, String step) {
        String v = text(name);
        if (v == null) {
            throw new InvalidField(
                    (shared == null ? field : shared.field) + "." + name,
                    "step " + step + " needs " + "params." + name);
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

    /** Where {@code name} is, for an error: this object's field, or the shared one's when only it has it. */
    private String fieldOf(String name) {
        boolean here = node != null && node.has(name) && !node.get(name).isNull();
        return here || shared == null ? field + "." + name : shared.fieldOf(name);
    }
}
