/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The failure of a write the user reads as one line: an I/O failure whose message is not prefixed with its cause's class. */
final class IoFailure {

    private IoFailure() {}

    /** An I/O failure whose message is {@code message}. */
    static UncheckedIOException of(String message) {
        return new UncheckedIOException(message, new IOException(message));
    }
}
