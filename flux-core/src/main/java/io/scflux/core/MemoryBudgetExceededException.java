package io.scflux.core;

/**
 * A size that does not fit the {@link MemoryBudget}: the file or the request is not wrong, the machine is too small
 * for holding it at once. Thrown before any allocation.
 */
public final class MemoryBudgetExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MemoryBudgetExceededException(String message) {
        super(message);
    }
}
