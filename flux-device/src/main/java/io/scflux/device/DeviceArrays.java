/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import io.scflux.core.Backend;
import io.scflux.core.ResidentArrays;

/**
 * The device arrays of one block resident on a CUDA backend (the one that made them, held as a {@link Backend} so that
 * these arrays do not name the class that makes them): row pointers, column indices and values, each its own
 * allocation, accounted in the backend's {@code resident} account until the backend frees them.
 */
final class DeviceArrays implements ResidentArrays {

    private final Backend backend;
    final DeviceBuffer indptr;
    final DeviceBuffer indices;
    final DeviceBuffer values;

    DeviceArrays(Backend backend, DeviceBuffer indptr, DeviceBuffer indices, DeviceBuffer values) {
        this.backend = backend;
        this.indptr = indptr;
        this.indices = indices;
        this.values = values;
    }

    @Override
    public Backend backend() {
        return backend;
    }

    @Override
    public long bytes() {
        return indptr.bytes() + indices.bytes() + values.bytes();
    }
}
