/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.backend;

import java.util.Locale;

/**
 * What a user asks for with {@code --device}: {@code auto} (a device when one is usable, else the host, said once),
 * {@code cpu} (the host) or {@code cuda} (a CUDA device, or an error).
 */
public enum BackendChoice {
    AUTO,
    CPU,
    CUDA;

    /** The choice named {@code text} (case-insensitive), with an error listing the accepted names. */
    public static BackendChoice parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("device must be auto, cpu or cuda, got '" + text + "'", e);
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
