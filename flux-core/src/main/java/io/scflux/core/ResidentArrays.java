/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * The CSR arrays of a {@link ResidentBlock} held by a backend instead of the heap (device memory): the block
 * keeps its shape, and its arrays reach the heap only through {@link Backend#download}. Whoever holds a resident block
 * owns its arrays, as a subscriber owns a Netty buffer: it passes the block on, or hands it to its backend, which
 * frees them (a download, a re-index) and releases their bytes from its {@link MemoryAccount}; the backend frees what
 * is left when it closes.
 */
public interface ResidentArrays {

    /** The backend whose memory holds the arrays. */
    Backend backend();

    /** The bytes the arrays take, as accounted in the backend's {@link MemoryAccount}. */
    long bytes();
}
