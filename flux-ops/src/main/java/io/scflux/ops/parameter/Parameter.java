/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.parameter;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One parameter of a step, declared once, as a constant of the step's options record: scanpy's name, its kind, scanpy's
 * default (or none), its bounds or choices and a one-line doc. The options record reads its value from
 * {@link Arguments} and checks it here; the command line's options, the service's JSON parameters and the Python
 * package's checks are made from the same declaration (through {@link StepCatalog}), so that none of them repeats a
 * default or a bound.
 *
 * <p>A value is given as the command line gives it (a string, or a list of strings), or as JSON gives it (a number, a
 * bool, a string, a list), or as its Java type; {@link #parse} turns any of them into the Java type and checks it.
 *
 * @param <T> the Java type of the value: Integer, Double, Boolean, String or a List of Integer or String
 */
public final class Parameter<T> {

    /** What kind of value a parameter takes, as every front end needs to know it. */
    public enum Kind {
        /** A whole number (Integer). */
        INT,
        /** A real number (Double); infinities only where the bounds allow them, never NaN. */
        FLOAT,
        /** True or false (Boolean). */
        BOOL,
        /** A non-empty string. */
        STRING,
        /** One of {@link #choices()}, by scanpy's names. */
        CHOICE,
        /** A list of whole numbers. */
        INT_LIST,
        /** A list of non-empty strings. */
        STRING_LIST,
        /** The name of an obs column the input must have. */
        OBS_COLUMN,
        /** The name of a var column the input must have. */
        VAR_COLUMN,
        /** Names of var columns the input must have. */
        VAR_COLUMNS;

        /** The name the catalog's JSON uses: {@code int}, {@code float}, {@code obs_column}... */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** @return whether a value of this kind is a list */
        public boolean isList() {
            return this == INT_LIST || this == STRING_LIST || this == VAR_COLUMNS;
        }
    }

    private final String name;
    private final Kind kind;
    private final @Nullable T defaultValue;
    private final boolean required;
    private final @Nullable Double min;
    private final boolean minOpen;
    private final @Nullable Double max;
    private final boolean maxOpen;
    private final @Nullable Double excluded;
    private final List<String> choices;
    private final List<String> unsupported;
    private final String doc;

    private Parameter(
            String name,
            Kind kind,
            @Nullable T defaultValue,
            boolean required,
            @Nullable Double min,
            boolean minOpen,
            @Nullable Double max,
            boolean maxOpen,
            @Nullable Double excluded,
            List<String> choices,
            List<String> unsupported,
            String doc) {
        this.name = Objects.requireNonNull(name, "name");
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.required = required;
        this.min = min;
        this.minOpen = minOpen;
        this.max = max;
        this.maxOpen = maxOpen;
        this.excluded = excluded;
        this.choices = List.copyOf(choices);
        this.unsupported = List.copyOf(unsupported);
        this.doc = Objects.requireNonNull(doc, "doc");
    }

    private static <T> Parameter<T> of(String name, Kind kind, @Nullable T defaultValue, String doc) {
        return new Parameter<>(
                name, kind, defaultValue, false, null, false, null, false, null, List.of(), List.of(), doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default, or null for none
     * @param doc          what it does, one line
     * @return a whole-number parameter
     */
    public static Parameter<Integer> integer(String name, @Nullable Integer defaultValue, String doc) {
        return of(name, Kind.INT, defaultValue, doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default, or null for none
     * @param doc          what it does, one line
     * @return a real-number parameter
     */
    public static Parameter<Double> number(String name, @Nullable Double defaultValue, String doc) {
        return of(name, Kind.FLOAT, defaultValue, doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default, or null for none (then unset means the step decides)
     * @param doc          what it does, one line
     * @return a true-or-false parameter
     */
    public static Parameter<Boolean> bool(String name, @Nullable Boolean defaultValue, String doc) {
        return of(name, Kind.BOOL, defaultValue, doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default, or null for none
     * @param doc          what it does, one line
     * @return a string parameter
     */
    public static Parameter<String> text(String name, @Nullable String defaultValue, String doc) {
        return of(name, Kind.STRING, defaultValue, doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default (one of {@code choices}), or null for none
     * @param choices      the values accepted, by scanpy's names
     * @param doc          what it does, one line
     * @return a parameter taking one of {@code choices}
     */
    public static Parameter<String> choice(
            String name, @Nullable String defaultValue, List<String> choices, String doc) {
        if (defaultValue != null && !choices.contains(defaultValue)) {
            throw new IllegalArgumentException(name + ": default " + defaultValue + " is not among " + choices);
        }
        return new Parameter<>(
                name, Kind.CHOICE, defaultValue, false, null, false, null, false, null, choices, List.of(), doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default, or null for none
     * @param doc          what it does, one line
     * @return a parameter taking a list of whole numbers
     */
    public static Parameter<List<Integer>> integers(String name, @Nullable List<Integer> defaultValue, String doc) {
        return of(name, Kind.INT_LIST, defaultValue, doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default, or null for none
     * @param doc          what it does, one line
     * @return a parameter taking a list of strings
     */
    public static Parameter<List<String>> strings(String name, @Nullable List<String> defaultValue, String doc) {
        return of(name, Kind.STRING_LIST, defaultValue, doc);
    }

    /**
     * @param name scanpy's name
     * @param doc  what it does, one line
     * @return a parameter naming an obs column of the input, without a default
     */
    public static Parameter<String> obsColumn(String name, String doc) {
        return of(name, Kind.OBS_COLUMN, null, doc);
    }

    /**
     * @param name scanpy's name
     * @param doc  what it does, one line
     * @return a parameter naming a var column of the input, without a default
     */
    public static Parameter<String> varColumn(String name, String doc) {
        return of(name, Kind.VAR_COLUMN, null, doc);
    }

    /**
     * @param name         scanpy's name
     * @param defaultValue scanpy's default
     * @param doc          what it does, one line
     * @return a parameter naming var columns of the input
     */
    public static Parameter<List<String>> varColumns(String name, @Nullable List<String> defaultValue, String doc) {
        return of(name, Kind.VAR_COLUMNS, defaultValue, doc);
    }

    private Parameter<T> with(
            @Nullable Double lo,
            boolean loOpen,
            @Nullable Double hi,
            boolean hiOpen,
            @Nullable Double not,
            boolean must) {
        return new Parameter<>(name, kind, defaultValue, must, lo, loOpen, hi, hiOpen, not, choices, unsupported, doc);
    }

    /**
     * @param bound the least value (of each element, for a list)
     * @return this parameter, refusing values below {@code bound}
     */
    public Parameter<T> atLeast(double bound) {
        return with(bound, false, max, maxOpen, excluded, required);
    }

    /**
     * @param bound a value just below the least accepted
     * @return this parameter, refusing values at or below {@code bound}
     */
    public Parameter<T> above(double bound) {
        return with(bound, true, max, maxOpen, excluded, required);
    }

    /**
     * @param bound the largest value
     * @return this parameter, refusing values above {@code bound}
     */
    public Parameter<T> atMost(double bound) {
        return with(min, minOpen, bound, false, excluded, required);
    }

    /**
     * @param bound a value just above the largest accepted ({@code Double.POSITIVE_INFINITY}: finite values only)
     * @return this parameter, refusing values at or above {@code bound}
     */
    public Parameter<T> below(double bound) {
        return with(min, minOpen, bound, true, excluded, required);
    }

    /**
     * @param value a value within the bounds that is nonetheless refused (a logarithm's base 1)
     * @return this parameter, refusing {@code value}
     */
    public Parameter<T> except(double value) {
        return with(min, minOpen, max, maxOpen, value, required);
    }

    /**
     * @param values values scanpy takes that scflux does not have (a choice's {@code logreg})
     * @return this parameter, refusing {@code values} as not supported rather than unknown
     */
    public Parameter<T> unsupported(String... values) {
        return new Parameter<>(
                name,
                kind,
                defaultValue,
                required,
                min,
                minOpen,
                max,
                maxOpen,
                excluded,
                choices,
                List.of(values),
                doc);
    }

    /** @return this parameter, which every call must give (it has no default) */
    public Parameter<T> required() {
        return with(min, minOpen, max, maxOpen, excluded, true);
    }

    /** @return scanpy's name, e.g. {@code n_top_genes} */
    public String name() {
        return name;
    }

    /** @return the kind of value */
    public Kind kind() {
        return kind;
    }

    /** @return scanpy's default, or null for none (the step then decides, as scanpy does for a None) */
    public @Nullable T defaultValue() {
        return defaultValue;
    }

    /** @return whether every call must give it */
    public boolean isRequired() {
        return required;
    }

    /** @return the least value, or null for none; see {@link #minExclusive} */
    public @Nullable Double min() {
        return min;
    }

    /** @return whether {@link #min} itself is refused */
    public boolean minExclusive() {
        return minOpen;
    }

    /** @return the largest value, or null for none; see {@link #maxExclusive} */
    public @Nullable Double max() {
        return max;
    }

    /** @return whether {@link #max} itself is refused */
    public boolean maxExclusive() {
        return maxOpen;
    }

    /** @return a value refused although within the bounds, or null */
    public @Nullable Double excluded() {
        return excluded;
    }

    /** @return the values of a {@link Kind#CHOICE}, else empty */
    public List<String> choices() {
        return choices;
    }

    /** @return values scanpy takes that scflux refuses as not supported, else empty */
    public List<String> unsupportedValues() {
        return unsupported;
    }

    /** @return what it does, one line */
    public String doc() {
        return doc;
    }

    /** @return whether it names columns of the input ({@link Kind#OBS_COLUMN}, {@link Kind#VAR_COLUMN}...) */
    public boolean namesColumns() {
        return kind == Kind.OBS_COLUMN || kind == Kind.VAR_COLUMN || kind == Kind.VAR_COLUMNS;
    }

    /**
     * The value {@code raw} as this parameter's type, checked.
     *
     * @param raw as the command line gives it (a string, a list of strings), as JSON does (a number, a bool, a string,
     *            a list) or of the Java type; not null
     * @return the value
     * @throws InvalidParameterException naming this parameter when {@code raw} is of the wrong kind or out of bounds
     */
    @SuppressWarnings("unchecked")
    public T parse(Object raw) {
        Objects.requireNonNull(raw, name);
        Object value;
        if (kind.isList()) {
            if (!(raw instanceof List<?> list)) {
                throw invalid("a list", raw);
            }
            List<Object> out = new ArrayList<>(list.size());
            for (Object e : list) {
                out.add(kind == Kind.INT_LIST ? whole(e, raw) : string(e, raw));
            }
            value = List.copyOf(out);
        } else {
            value = switch (kind) {
                case INT -> whole(raw, raw);
                case FLOAT -> real(raw);
                case BOOL -> bool(raw);
                default -> string(raw, raw);
            };
        }
        return checked((T) value);
    }

    /**
     * Checks a value of the Java type against the bounds and choices.
     *
     * @param value the value, or null for unset (accepted unless {@link #isRequired})
     * @return {@code value}
     * @throws InvalidParameterException naming this parameter when it is out of bounds
     */
    public @Nullable T check(@Nullable T value) {
        if (value == null) {
            if (required) {
                throw new InvalidParameterException(name, name + " is required");
            }
            return null;
        }
        return checked(value);
    }

    /** {@code value}, checked against the bounds and choices. */
    private T checked(T value) {
        if (value instanceof List<?> list) {
            for (Object e : list) {
                checkOne(e, list);
            }
        } else {
            checkOne(value, value);
        }
        return value;
    }

    private void checkOne(Object v, Object whole) {
        if (v instanceof Number n) {
            double d = n.doubleValue();
            if (Double.isNaN(d)) {
                throw new InvalidParameterException(name, name + " must be a number, got NaN");
            }
            if (min != null && (minOpen ? !(d > min) : !(d >= min))) {
                String bound = min == 0
                        ? (minOpen ? "be positive" : "not be negative")
                        : (minOpen ? "be more than " : "be at least ") + format(min);
                throw new InvalidParameterException(name, name + " must " + bound + ", got " + format(whole));
            }
            if (max != null && (maxOpen ? !(d < max) : !(d <= max))) {
                throw new InvalidParameterException(
                        name,
                        name + " must be "
                                + (max == Double.POSITIVE_INFINITY
                                        ? "finite"
                                        : (maxOpen ? "less than " : "at most ") + format(max))
                                + ", got " + format(whole));
            }
            if (excluded != null && d == excluded) {
                throw new InvalidParameterException(name, name + " must not be " + format(excluded));
            }
        } else if (kind == Kind.CHOICE && unsupported.contains(v)) {
            throw new InvalidParameterException(
                    name, name + " " + v + " is not supported: expected " + String.join(", ", choices));
        } else if (kind == Kind.CHOICE && !choices.contains(v)) {
            throw new InvalidParameterException(
                    name, "unknown " + name + " " + v + ": expected " + String.join(", ", choices));
        }
    }

    private Integer whole(Object e, Object raw) {
        if (e instanceof Integer i) {
            return i;
        }
        if (e instanceof Long || e instanceof Short || e instanceof Byte || e instanceof BigInteger) {
            long l = ((Number) e).longValue();
            if (l == (int) l && !(e instanceof BigInteger b && b.bitLength() > 31)) {
                return (int) l;
            }
        } else if (e instanceof String s) {
            try {
                return Integer.parseInt(s.strip());
            } catch (NumberFormatException ignored) {
                // refused below
            }
        }
        throw invalid(kind.isList() ? "a list of whole numbers" : "a whole number", raw);
    }

    private Double real(Object raw) {
        if (raw instanceof Number n) {
            return n.doubleValue();
        }
        if (raw instanceof String s) {
            try {
                return Double.parseDouble(s.strip());
            } catch (NumberFormatException ignored) {
                // refused below
            }
        }
        throw invalid("a number", raw);
    }

    private Boolean bool(Object raw) {
        if (raw instanceof Boolean b) {
            return b;
        }
        if ("true".equals(raw) || "false".equals(raw)) {
            return Boolean.parseBoolean((String) raw);
        }
        throw invalid("true or false", raw);
    }

    private String string(Object e, Object raw) {
        if (e instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw invalid(kind.isList() ? "a list of non-empty strings" : "a non-empty string", raw);
    }

    private InvalidParameterException invalid(String what, Object raw) {
        return new InvalidParameterException(name, name + " must be " + what + ", got " + raw);
    }

    private static String format(Object v) {
        if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString(d.longValue());
        }
        return String.valueOf(v);
    }

    @Override
    public String toString() {
        return name;
    }
}
