/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

/**
 * The sizes the writers chunk their datasets by and the largest index int32 holds: one place for the writers and for
 * {@link OutputSize}, whose estimate of a file follows the same layout.
 */
final class WriteLayout {

    /** Largest chunk of a streamed dataset, in elements (1 MiB of float32 values). */
    static final long MAX_CHUNK = 1 << 18;

    /** Elements per chunk of a compressed fixed-size dataset (h5py picks chunks of this order). */
    static final int CHUNK_ELEMENTS = 1 << 16;

    /** The largest entry count or dimension int32 indices hold. */
    static final long INT32_LIMIT = Integer.MAX_VALUE;

    private WriteLayout() {}
}
