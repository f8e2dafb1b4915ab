/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How {@link Concat} stacks containers, with anndata's {@code concat} arguments (the obs axis only; var annotations
 * are dropped as with {@code merge=None}).
 *
 * @param join        {@link Join#INNER} keeps the genes every input has, {@link Join#OUTER} all of them
 * @param label       obs column naming each cell's input by its key (categorical), or null for none
 * @param keys        one key per input (default "0", "1", ...), or null
 * @param indexUnique separator between a cell's name and its input's key, or null to keep names as they are
 * @param fillValue   value of the genes an input lacks in an outer join, or null for anndata's default (implicit
 *                    zeros in sparse X, NaN when every input is dense)
 */
public record ConcatOptions(
        Join join,
        @Nullable String label,
        @Nullable List<String> keys,
        @Nullable String indexUnique,
        @Nullable Float fillValue) {

    /** anndata's {@code join="inner"} and {@code join="outer"}. */
    public enum Join {
        INNER,
        OUTER
    }

    /** anndata's {@code join}. */
    public static final Parameter<String> JOIN = Parameter.choice(
            "join",
            "inner",
            List.of("inner", "outer"),
            "Genes to keep: inner those every input has (the first input's order), outer all of them (sorted).");

    /** anndata's {@code label}: a column this step adds, so not one the input must have. */
    public static final Parameter<String> LABEL =
            Parameter.text("label", null, "obs column naming each cell's input by its key (categorical).");

    /** anndata's {@code keys}. */
    public static final Parameter<List<String>> KEYS =
            Parameter.strings("keys", null, "One key per input, unique (default: 0, 1, ...).");

    /** anndata's {@code index_unique}. */
    public static final Parameter<String> INDEX_UNIQUE = Parameter.text(
            "index_unique", null, "Separator put between a cell's name and its input's key (default: names kept).");

    /** anndata's {@code fill_value}. */
    public static final Parameter<Double> FILL_VALUE = Parameter.number(
            "fill_value", null, "Value of the genes an input lacks in an outer join (default: implicit zeros).");

    /** The parameters, in anndata's order. */
    public static final List<Parameter<?>> PARAMETERS = List.of(JOIN, LABEL, KEYS, INDEX_UNIQUE, FILL_VALUE);

    /**
     * @param arguments values of {@link #PARAMETERS}, by anndata's names
     * @return the options they give, anndata's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static ConcatOptions from(Arguments arguments) {
        Double fill = arguments.get(FILL_VALUE);
        return new ConcatOptions(
                Join.valueOf(arguments.require(JOIN).toUpperCase(Locale.ROOT)),
                arguments.get(LABEL),
                arguments.get(KEYS),
                arguments.get(INDEX_UNIQUE),
                fill == null ? null : fill.floatValue());
    }

    public ConcatOptions {
        Objects.requireNonNull(join, "join");
        keys = keys == null ? null : List.copyOf(keys);
        if (keys != null && keys.stream().distinct().count() != keys.size()) {
            throw new InvalidParameterException(KEYS.name(), "keys must be unique, got " + keys);
        }
    }

    /** anndata's defaults: inner join, no label, names unchanged. */
    public static ConcatOptions defaults() {
        return from(Arguments.none());
    }

    public ConcatOptions withJoin(Join j) {
        return new ConcatOptions(j, label, keys, indexUnique, fillValue);
    }

    public ConcatOptions withLabel(String column) {
        return new ConcatOptions(join, column, keys, indexUnique, fillValue);
    }

    public ConcatOptions withKeys(List<String> k) {
        return new ConcatOptions(join, label, k, indexUnique, fillValue);
    }

    public ConcatOptions withIndexUnique(String separator) {
        return new ConcatOptions(join, label, keys, separator, fillValue);
    }

    public ConcatOptions withFillValue(Float value) {
        return new ConcatOptions(join, label, keys, indexUnique, value);
    }
}
