/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import org.jspecify.annotations.Nullable;

/**
 * A job request the service refuses, naming the JSON field at fault ({@code input}, {@code steps[2]},
 * {@code params.n_comps}); the service answers it with a 400 problem document.
 */
final class InvalidField extends IllegalArgumentException {

    private final String field;

    InvalidField(String field, @Nullable String detail) {
        super(detail);
        this.field = field;
    }

    String field() {
        return field;
    }
}
