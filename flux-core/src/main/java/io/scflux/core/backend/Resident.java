package io.scflux.core.backend;

import io.scflux.core.BlockSource;

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
}
