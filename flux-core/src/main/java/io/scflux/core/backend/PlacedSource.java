/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.backend;

import io.scflux.core.BlockSource;
import io.scflux.core.ForwardingSource;
import io.scflux.core.RowReader;
import org.jspecify.annotations.Nullable;

/**
 * A source read from one backend and handed on another ({@link Resident#on}): each block is downloaded from the
 * first and uploaded to the second as it is read. Its blocks are cached under the source's key only on the host: a
 * resident block is owned by the one consumer it is handed to.
 */
final class PlacedSource extends ForwardingSource implements Resident {

    private final Backend from;
    private final Backend to;

    PlacedSource(BlockSource source, Backend from, Backend to) {
        super(source);
        this.from = from;
        this.to = to;
    }

    @Override
    public Backend backend() {
        return to;
    }

    @Override
    public @Nullable Object cacheKey() {
        return to.isHost() ? super.cacheKey() : null;
    }

    @Override
    public RowReader open() {
        RowReader reader = super.open();
        return RowReader.over(
                reader,
                (blockIndex, rowFrom, rowTo) -> to.upload(from.download(reader.read(blockIndex, rowFrom, rowTo))));
    }

    @Override
    public String describe() {
        return super.describe() + " on " + to.name();
    }
}
