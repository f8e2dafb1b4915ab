/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.parameter;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The values given to one step, by scanpy's parameter names, as a front end received them (command-line strings,
 * JSON values, Java values); an options record reads each through its {@link Parameter}, which converts and checks
 * it, and gets the parameter's default for one not given. Immutable.
 */
public final class Arguments {

    private static final Arguments NONE = new Arguments(Map.of());

    private final Map<String, Object> given;

    private Arguments(Map<String, Object> given) {
        this.given = given;
    }

    /** @return no values: every parameter at its default */
    public static Arguments none() {
        return NONE;
    }

    /**
     * @param given values by scanpy's parameter names; a null value counts as not given
     * @return those values
     */
    public static Arguments of(Map<String, ?> given) {
        Map<String, Object> copy = new LinkedHashMap<>();
        given.forEach((k, v) -> {
            if (v != null) {
                copy.put(k, v);
            }
        });
        return new Arguments(Collections.unmodifiableMap(copy));
    }

    /**
     * @param parameter a parameter
     * @param <T>       its type
     * @return the value given for it, converted and checked, else its default (null when it has none)
     * @throws InvalidParameterException naming it when the value given is refused, or none is given for a required one
     */
    public <T> @Nullable T get(Parameter<T> parameter) {
        Object raw = given.get(parameter.name());
        return raw == null ? parameter.check(parameter.defaultValue()) : parameter.parse(raw);
    }

    /**
     * As {@link #get}, for a parameter that has a value whenever a step runs: a default, or required.
     *
     * @param parameter a parameter with a default, or a required one
     * @param <T>       its type
     * @return the value given for it, converted and checked, else its default
     * @throws InvalidParameterException naming it when the value given is refused, or there is none
     */
    public <T> T require(Parameter<T> parameter) {
        T value = get(parameter);
        if (value == null) {
            throw new InvalidParameterException(parameter.name(), parameter.name() + " is required");
        }
        return value;
    }

    /**
     * @param parameter a parameter
     * @param value     its value (null: not given)
     * @return these values with {@code value} for {@code parameter}
     */
    public Arguments with(Parameter<?> parameter, @Nullable Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(given);
        copy.put(parameter.name(), value);
        return of(copy);
    }

    /**
     * @param parameter a parameter
     * @return whether a value is given for it
     */
    public boolean has(Parameter<?> parameter) {
        return given.containsKey(parameter.name());
    }

    /** @return the names given, in the order given */
    public Set<String> names() {
        return given.keySet();
    }

    /**
     * The one parameter of {@code parameters} given, as scanpy's filters take one criterion per call.
     *
     * @param step       scanpy's function, for the message
     * @param parameters the alternatives
     * @return the one given
     * @throws InvalidParameterException naming the second one given, or no parameter when none is
     */
    public Parameter<?> oneOf(String step, List<Parameter<?>> parameters) {
        Parameter<?> found = null;
        String names = parameters.stream().map(Parameter::name).collect(Collectors.joining(", "));
        for (Parameter<?> p : parameters) {
            if (has(p)) {
                if (found != null) {
                    throw new InvalidParameterException(
                            p.name(),
                            step + " takes one of " + names + ": " + found.name() + " and " + p.name()
                                    + " are mutually exclusive");
                }
                found = p;
            }
        }
        if (found == null) {
            throw new InvalidParameterException(null, step + " needs one of " + names);
        }
        return found;
    }

    /**
     * @param step       scanpy's function, for the message
     * @param parameters the parameters the step takes
     * @throws InvalidParameterException naming the first value given that is no parameter of the step
     */
    public void requireKnown(String step, List<Parameter<?>> parameters) {
        Set<String> known = parameters.stream().map(Parameter::name).collect(Collectors.toSet());
        for (String name : given.keySet()) {
            if (!known.contains(name)) {
                throw new InvalidParameterException(
                        name,
                        step + " has no parameter " + name + " (parameters: "
                                + parameters.stream().map(Parameter::name).collect(Collectors.joining(", ")) + ")");
            }
        }
    }

    @Override
    public String toString() {
        return given.toString();
    }
}
