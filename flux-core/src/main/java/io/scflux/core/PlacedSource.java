/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import org.jspecify.annotations.Nullable;

/**
 * A source read from one backend and handed on another ({@link #on}): each block is downloaded from the
 * first and uploaded to the second as it is read. Its blocks are cached under the source's key only on the host: a
 * resident block is owned by the one consumer it is handed to.
 */
public final class PlacedSource extends ForwardingSource implements Resident {

    private final Backend from;
    private final Backend to;

    private PlacedSource(BlockSource source, Backend from, Backend to) {
        super(source);
        this.from = from;
        this.to = to;
    }

    /**
     * {@code source} with its blocks on {@code backend}: itself when they are there already, else a source whose
     * blocks are moved as they are read (downloaded from their backend, uploaded to {@code backend}). A consumer that
     * reads heap arrays (a writer, a reducer) takes {@code on(HostBackend.INSTANCE, source)}.
     *
     * @param backend where the blocks are to be
     * @param source the source read
     * @return {@code source} or its placed form
     */
    public static BlockSource on(Backend backend, BlockSource source) {
        Backend from = Resident.of(source);
        return from == backend ? source : new PlacedSource(source, from, backend);
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
        return placed(super.open());
    }

    @Override
    public RowReader open(Pass pass) {
        return placed(super.open(pass));
    }

    /** {@code reader}, the delegate's, its blocks moved to this source's backend. */
    private RowReader placed(RowReader reader) {
        return RowReader.over(
                reader,
                (blockIndex, rowFrom, rowTo) -> to.upload(from.download(reader.read(blockIndex, rowFrom, rowTo))));
    }

    @Override
    public String describe() {
        return super.describe() + " on " + to.name();
    }
}
