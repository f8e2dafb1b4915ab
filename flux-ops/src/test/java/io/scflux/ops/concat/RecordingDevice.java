/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.test.RecordingBackend;

/** The recording test device with concat's re-indexing kernel: the host's code on its blocks' hidden arrays. */
final class RecordingDevice {

    private RecordingDevice() {}

    /** A recording device named {@code name} that re-indexes its resident blocks, recording {@code reindex}. */
    static RecordingBackend of(String name) {
        RecordingBackend device = new RecordingBackend(name);
        return device.offering(
                ReindexKernel.class,
                (block, map, fill) -> device.onArrays("reindex", block, b -> map.reindex(b, fill)));
    }
}
