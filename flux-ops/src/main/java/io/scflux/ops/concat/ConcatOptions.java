/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.InvalidOptionException;
import java.util.List;
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

    public ConcatOptions {
        Objects.requireNonNull(join, "join");
        keys = keys == null ? null : List.copyOf(keys);
        if (keys != null && keys.stream().distinct().count() != keys.size()) {
            throw new InvalidOptionException("keys must be unique, got " + keys);
        }
    }

    /** anndata's defaults: inner join, no label, names unchanged. */
    public static ConcatOptions defaults() {
        return new ConcatOptions(Join.INNER, null, null, null, null);
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
