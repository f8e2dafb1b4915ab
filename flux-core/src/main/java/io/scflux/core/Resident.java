/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * A source whose blocks live on a backend, so that whoever combines sources can keep blocks where they are. A source
 * that does not say lives on the host ({@link #of}).
 */
public interface Resident {

    /** The backend this source's blocks are on. */
    Backend backend();

    /** The backend of {@code source}'s blocks: its own when it is {@link Resident}, else the host. */
    static Backend of(BlockSource source) {
        return source instanceof Resident r ? r.backend() : HostBackend.INSTANCE;
    }

    /**
     * The backend whose memory holds {@code block}'s arrays: the host unless it is a resident block.
     *
     * @param block a block read from any source
     * @return the backend holding its arrays
     */
    static Backend of(RowBlock block) {
        return block instanceof ResidentBlock r ? r.arrays().backend() : HostBackend.INSTANCE;
    }
}
