/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import org.jspecify.annotations.Nullable;

/**
 * Input that does not hold what its format promises. The message names the file, the HDF5 path (or element) and
 * the expectation, as in {@code data.h5ad: /X/indptr: expected int32 or int64, found float64}: one line, with what
 * it quotes of the file escaped ({@link Printable}).
 */
public class ScfluxFormatException extends RuntimeException {

    private final String file;
    private final String path;

    public ScfluxFormatException(String file, String path, String problem) {
        this(file, path, problem, null);
    }

    public ScfluxFormatException(String file, String path, String problem, @Nullable Throwable cause) {
        super(Printable.escape(file + ": " + path + ": " + problem), cause);
        this.file = file;
        this.path = path;
    }

    /** The file (or source description) at fault. */
    public String file() {
        return file;
    }

    /** The HDF5 path (or element name) at fault. */
    public String path() {
        return path;
    }
}
