package io.scflux.core;

/**
 * A reservation refused because it would take a {@link MemoryAccount} over its cap. Nothing was allocated; a planner
 * that sees it chose blocks too large for the configured memory.
 */
public final class MemoryCapException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    MemoryCapException(String message) {
        super(message);
    }
}
