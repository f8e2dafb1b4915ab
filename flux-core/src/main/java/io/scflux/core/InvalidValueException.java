/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * A matrix holds a value a step cannot take: a negative, NaN or infinite count, a non-finite normalized value. The
 * message names the cell, the gene and the value, and what the step expects; a caller that knows the file prefixes it.
 */
public class InvalidValueException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidValueException(String message) {
        super(message);
    }
}
