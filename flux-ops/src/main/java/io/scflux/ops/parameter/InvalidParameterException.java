/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.parameter;

import io.scflux.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * A value a {@link Parameter} refuses, or a parameter a step does not take: an {@link InvalidOptionException} that
 * also says which parameter, by scanpy's name, so that a front end can point at its own spelling of it (the service
 * at {@code params.n_comps}, the command line at {@code --n-comps}).
 */
public class InvalidParameterException extends InvalidOptionException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String parameter;

    /**
     * @param parameter scanpy's name of the parameter at fault, or null when the fault is no one parameter's
     * @param message   what was given and what is accepted
     */
    public InvalidParameterException(@Nullable String parameter, String message) {
        super(message);
        this.parameter = parameter;
    }

    /** @return scanpy's name of the parameter at fault, or null when it is no one parameter's */
    public @Nullable String parameter() {
        return parameter;
    }
}
