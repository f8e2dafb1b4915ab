/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.anndata.MissingColumnException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/**
 * The kind of a failure is the first of its causes that tells, with the Java API's {@link UncheckedIOException}
 * only carrying its cause: a missing input is not found however deep it is wrapped.
 */
class ErrorKindTest {

    @Test
    void anUncheckedIoExceptionIsItsCausesKind() {
        assertEquals(ErrorKind.NOT_FOUND, ErrorKind.of(new UncheckedIOException(new NoSuchFileException("in.h5ad"))));
        assertEquals(
                ErrorKind.PERMISSION, ErrorKind.of(new UncheckedIOException(new AccessDeniedException("in.h5ad"))));
        assertEquals(ErrorKind.IO, ErrorKind.of(new UncheckedIOException(new IOException("disk full"))));
    }

    @Test
    void theFirstCauseThatTellsDecides() {
        assertEquals(
                ErrorKind.MISSING_KEY,
                ErrorKind.of(new IllegalStateException(new MissingColumnException("obs has no column nope"))));
        assertEquals(ErrorKind.INVALID, ErrorKind.of(new IllegalArgumentException(new IOException("later"))));
        assertEquals(ErrorKind.INTERNAL, ErrorKind.of(new NullPointerException()));
    }
}
