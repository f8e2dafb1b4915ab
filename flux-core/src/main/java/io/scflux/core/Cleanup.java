/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.util.function.Consumer;

/**
 * Closing or finishing several things where one failing must not stop the others (a full disk fails every dataset
 * of a file at once): the action runs on each, and the first failure is thrown with the later ones suppressed.
 */
public final class Cleanup {

    private Cleanup() {}

    /** Runs {@code action} on every item of {@code items} but nulls, even after one failed; throws the first failure. */
    public static <T> void all(Iterable<? extends T> items, Consumer<? super T> action) {
        RuntimeException failure = null;
        for (T item : items) {
            if (item == null) {
                continue;
            }
            try {
                action.accept(item);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
