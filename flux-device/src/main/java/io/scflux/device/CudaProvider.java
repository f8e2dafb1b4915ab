/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import io.scflux.core.Backend;
import io.scflux.core.backend.BackendProvider;
import org.jspecify.annotations.Nullable;

/** Registers the CUDA backend with {@link io.scflux.core.backend.Backends} through {@link java.util.ServiceLoader}. */
public final class CudaProvider implements BackendProvider {

    @Override
    public String name() {
        return "cuda";
    }

    @Override
    public @Nullable String unavailableReason() {
        return CudaProbe.unavailableReason();
    }

    @Override
    public Backend create(long capBytes) {
        return CudaBackend.open(capBytes);
    }
}
