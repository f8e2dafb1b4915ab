/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.backend;

import io.scflux.core.Backend;
import org.jspecify.annotations.Nullable;

/**
 * A device backend found through {@link java.util.ServiceLoader} (flux-device registers CUDA's), so that flux-core
 * never depends on a device library. It is probed once and created only when usable.
 */
public interface BackendProvider {

    /** The device name a {@link BackendChoice} selects: {@code cuda}. */
    String name();

    /** Why this device cannot run here (no driver, no device, load failure), or null when it can. */
    @Nullable
    String unavailableReason();

    /** A backend whose buffers are accounted under {@code capBytes}; only called when usable. */
    Backend create(long capBytes);
}
