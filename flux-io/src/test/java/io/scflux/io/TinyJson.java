/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses the JSON that the Python probes print: objects as LinkedHashMap, arrays as List, numbers as Double. */
final class TinyJson {

    /** Python's json module writes NaN and Infinity as bare words. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    private TinyJson() {}

    static Object parse(String json) {
        try {
            return doubles(MAPPER.readValue(json, Object.class));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + json, e);
        }
    }

    private static Object doubles(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put((String) k, doubles(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            l.forEach(x -> out.add(doubles(x)));
            return out;
        }
        return v;
    }
}
