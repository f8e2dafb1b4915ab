/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import org.jspecify.annotations.Nullable;

/**
 * One column of an obs or var dataframe, in one of anndata's encodings: a plain array (numbers, bools, strings), a
 * categorical, or a nullable array with a mask ({@link ArrayColumn}, {@link CategoricalColumn}, {@link NullableColumn},
 * the three the writers encode). Not sealed: a {@code permits} clause would name the implementations, which name the
 * interface, a circle of files; nothing switches over the three exhaustively.
 */
public interface Column {

    int size();

    /** The value of row {@code i} boxed (string, boolean, number), or null where it is missing. */
    @Nullable
    Object get(int i);

    /** The rows {@code rows}, in that order (a copy). */
    Column take(int[] rows);

    /** The pandas dtype name: {@code float32}, {@code bool}, {@code object}, {@code category}, {@code Int64}... */
    String typeName();
}
