/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import io.scflux.core.ClusterException;
import io.scflux.core.InvalidOptionException;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.MissingColumnException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;
import picocli.CommandLine.ParameterException;

/**
 * What kind of failure the command line reported, for a program that drives it (the Python package turns each into
 * the matching exception: {@code FileNotFoundError}, {@code KeyError}...). Printed only when asked for, by
 * {@link #ENVIRONMENT}.
 */
public enum ErrorKind {
    /** An input file that does not exist. */
    NOT_FOUND,
    /** A file that may not be read or written. */
    PERMISSION,
    /** A column (obs, var) that a step names and the data lack. */
    MISSING_KEY,
    /** The command line itself is wrong, or an option's value (exit 2). */
    USAGE,
    /** The data are not what the step needs (a malformed file, a value out of range). */
    INVALID,
    /** Reading or writing failed (a full disk), the heap ran out, or the cluster could not run the work. */
    IO,
    /** A failure of scflux itself. */
    INTERNAL;

    /** The environment variable that asks for the kind line. */
    public static final String ENVIRONMENT = "SCFLUX_ERROR_KIND";

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The kind of {@code e}: the first of its causes that tells. An {@link UncheckedIOException} only carries its
     * cause (the Java API's way of throwing an {@link IOException}), so the cause tells: a missing input the API
     * reports so is {@link #NOT_FOUND}, not {@link #IO}.
     *
     * @param e a failure
     * @return its kind
     */
    public static ErrorKind of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UncheckedIOException) {
                continue;
            }
            if (t instanceof NoSuchFileException) {
                return NOT_FOUND;
            }
            if (t instanceof AccessDeniedException) {
                return PERMISSION;
            }
            if (t instanceof MissingColumnException) {
                return MISSING_KEY;
            }
            if (t instanceof ParameterException || t instanceof InvalidOptionException) {
                return USAGE;
            }
            if (t instanceof ScfluxFormatException
                    || t instanceof MemoryBudgetExceededException
                    || t instanceof IllegalArgumentException) {
                return INVALID;
            }
            if (t instanceof IOException || t instanceof ClusterException || t instanceof OutOfMemoryError) {
                return IO;
            }
        }
        return INTERNAL;
    }
}
