package io.scflux.samples.report;

import java.util.List;
import java.util.Map;

/**
 * Writes the few shapes scflux prints as JSON: maps (in their order), lists, strings, numbers, booleans and null.
 * Small enough not to need a library.
 */
public final class Json {

    private Json() {
    }

    /** {@code value} as one line of JSON; non-finite numbers become {@code null}. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb);
        return sb.toString();
    }

    private static void write(Object value, StringBuilder sb) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof String s) {
            quote(s, sb);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
        } else if (value instanceof Number || value instanceof Boolean) {
            sb.append(value);
        } else if (value instanceof Map<?, ?> map) {
            sb.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : map.entrySet()) {
                sb.append(sep);
                quote(String.valueOf(e.getKey()), sb);
                sb.append(": ");
                write(e.getValue(), sb);
                sep = ", ";
            }
            sb.append('}');
        } else if (value instanceof List<?> list) {
            sb.append('[');
            String sep = "";
            for (Object o : list) {
                sb.append(sep);
                write(o, sb);
                sep = ", ";
            }
            sb.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void quote(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
