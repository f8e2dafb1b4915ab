/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * A size refused because it would take a {@link MemoryAccount} over its cap (the host's: the memory budget): the file
 * or the request is not wrong, the machine or the configured memory is too small for holding it at once. Thrown
 * before any allocation; a planner that sees it chose blocks too large for the configured memory.
 */
public final class MemoryBudgetExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MemoryBudgetExceededException(String message) {
        super(message);
    }
}
