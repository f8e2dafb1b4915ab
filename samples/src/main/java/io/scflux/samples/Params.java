package io.scflux.samples;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * The {@code params} object of a job request, read by the steps that use them; a value of the wrong type or range, or
 * a name no step reads, is an {@link InvalidField} naming {@code params.NAME}.
 */
final class Params {

    private final JsonNode node;
    private final Set<String> read = new HashSet<>();

    Params(JsonNode node) {
        if (node != null && !node.isNull() && !node.isObject()) {
            throw new InvalidField("params", "params must be a JSON object");
        }
        this.node = node;
    }

    /** An integer of at least {@code min}, or null when absent. */
    Integer integer(String name, int min) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.intValue() < min) {
            throw new InvalidField("params." + name, name + " must be an integer of at least " + min + ", got " + v);
        }
        return v.intValue();
    }

    /** A positive finite number, or null when absent. */
    Double positive(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.isNumber() || !(v.doubleValue() > 0) || Double.isInfinite(v.doubleValue())) {
            throw new InvalidField("params." + name, name + " must be a positive number, got " + v);
        }
        return v.doubleValue();
    }

    /** A string, or null when absent. */
    String text(String name) {
        JsonNode v = value(name);
        if (v == null) {
            return null;
        }
        if (!v.isTextual() || v.textValue().isEmpty()) {
            throw new InvalidField("params." + name, name + " must be a non-empty string, got " + v);
        }
        return v.textValue();
    }

    /** A string that must be given. */
    String requiredText(String name, String step) {
        String v = text(name);
        if (v == null) {
            throw new InvalidField("params." + name, "step " + step + " needs params." + name);
        }
        return v;
    }

    /** Fails on the first parameter no step read. */
    void checkAllRead() {
        if (node == null || node.isNull()) {
            return;
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (!read.contains(name)) {
                throw new InvalidField("params." + name, "no step of this job reads params." + name);
            }
        }
    }

    private JsonNode value(String name) {
        read.add(name);
        JsonNode v = node == null ? null : node.get(name);
        return v == null || v.isNull() ? null : v;
    }
}
