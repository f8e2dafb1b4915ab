/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * An options record refused a value it was given ({@code min_cells} negative, {@code n_top_genes} 0, keys that
 * repeat): the caller's mistake, found before any data is read. Thrown by the options records, the one place each
 * step's parameters are validated; the command line answers it as a usage error (exit 2), as it answers a malformed
 * option.
 */
public class InvalidOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message what was given and what is accepted, naming the parameter as scanpy does */
    public InvalidOptionException(String message) {
        super(message);
    }
}
