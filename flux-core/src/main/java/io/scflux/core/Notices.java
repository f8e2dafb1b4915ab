package io.scflux.core;

import java.util.function.Consumer;

/**
 * Where the library's notices and warnings go when the caller names no place of its own: the platform logger
 * {@code io.scflux} (java.util.logging unless the application routes it, e.g. to SLF4J), never standard error
 * directly. Every class that reports something takes a {@code Consumer<String>} with this default.
 */
public final class Notices {

    private static final System.Logger LOGGER = System.getLogger("io.scflux");

    private Notices() {
    }

    /** A notice (a fallback taken, a cost the caller may want to know about), logged at INFO. */
    public static void info(String message) {
        LOGGER.log(System.Logger.Level.INFO, message);
    }

    /** A step's warning (scanpy's), logged at WARNING. */
    public static void warning(String message) {
        LOGGER.log(System.Logger.Level.WARNING, message);
    }

    /** {@link #info} as a consumer. */
    public static Consumer<String> toLog() {
        return Notices::info;
    }
}
