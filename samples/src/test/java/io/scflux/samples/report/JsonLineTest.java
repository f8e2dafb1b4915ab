/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What scflux prints as JSON parses back: maps in their order, non-finite numbers as null, strings escaped. */
class JsonLineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void keepsTheMapsOrderAndWritesNonFiniteNumbersAsNull() throws Exception {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", 1L);
        inner.put("a", List.of(1.5, Double.NaN, Float.POSITIVE_INFINITY, "x"));
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("nan", Double.NaN);
        value.put("minus_infinity", Double.NEGATIVE_INFINITY);
        value.put("float_nan", Float.NaN);
        value.put("inner", inner);
        value.put("none", null);
        value.put("flag", true);
        value.put("text", "a \"quote\"\n\ttab \\ \u0001 é");
        String line = JsonLine.of(value);
        assertFalse(line.contains("\n"), line);
        JsonNode json = JSON.readTree(line);
        assertEquals(List.of("nan", "minus_infinity", "float_nan", "inner", "none", "flag", "text"), names(json));
        for (String name : List.of("nan", "minus_infinity", "float_nan", "none")) {
            assertTrue(json.get(name).isNull(), name + " in " + line);
        }
        assertEquals(List.of("z", "a"), names(json.get("inner")));
        assertEquals("[1.5,null,null,\"x\"]", json.get("inner").get("a").toString());
        assertEquals("a \"quote\"\n\ttab \\ \u0001 é", json.get("text").asText());
    }

    @Test
    void aFloatIsWrittenAsItsDoubleValue() throws Exception {
        double read = JSON.readTree(JsonLine.of(Map.of("v", 0.1f))).get("v").asDouble();
        assertEquals((double) 0.1f, read);
        assertEquals("2953988.0", JsonLine.of(Arrays.asList(2953988.0)).replaceAll("[\\[\\]]", ""));
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
