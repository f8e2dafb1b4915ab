/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.backend;

import io.scflux.core.Backend;
import io.scflux.core.HostBackend;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the backend for a run from a {@link BackendChoice}: device backends are found with
 * {@link ServiceLoader}; {@code auto} falls back to the host and logs why (at info), {@code cuda} fails clearly.
 */
public final class Backends {

    private static final Logger LOG = LoggerFactory.getLogger(Backends.class);

    private Backends() {}

    /** {@link #select(BackendChoice, long)} with no cap. */
    public static Backend select(BackendChoice choice) {
        return select(choice, Long.MAX_VALUE);
    }

    /**
     * The backend for {@code choice}, its device buffers capped at {@code capBytes}; an {@code auto} run that stays
     * on the host logs one line saying why.
     *
     * @throws IllegalStateException for {@code cuda} when no usable CUDA device is found, with the reason
     */
    public static Backend select(BackendChoice choice, long capBytes) {
        if (choice == BackendChoice.CPU) {
            return HostBackend.INSTANCE;
        }
        BackendProvider cuda = provider("cuda");
        String reason = cuda == null ? "flux-device is not on the classpath" : cuda.unavailableReason();
        if (cuda != null && reason == null) {
            return cuda.create(capBytes);
        }
        if (choice == BackendChoice.CUDA) {
            throw new IllegalStateException("--device cuda: no usable CUDA device (" + reason + ")");
        }
        LOG.info("no usable CUDA device ({}); running on the host", reason);
        return HostBackend.INSTANCE;
    }

    private static @Nullable BackendProvider provider(String name) {
        for (BackendProvider p : ServiceLoader.load(BackendProvider.class)) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }
}
