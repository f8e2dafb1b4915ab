/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * An open handle on a {@link BlockSource} (a file, a transposed store, an array): reads any range of rows as a block.
 * One reader serves one subscription; {@link #read} may be called from several threads at once for different
 * ranges. {@link #close} releases the handle.
 */
public interface RowReader extends AutoCloseable {

    /**
     * Rows {@code [from, to)} as one block carrying {@code blockIndex}. Fails with a {@link ScfluxFormatException}
     * when the stored data are malformed and an {@link java.io.UncheckedIOException} when the storage fails.
     */
    RowBlock read(int blockIndex, long from, long to);

    /**
     * Rows {@code [from, to)} as block {@code blockIndex}, into {@code into}'s arrays (grown when too small), for a
     * pass that reuses its buffers from block to block. A reader that decodes (a file's) overrides it to decode
     * straight into them; by default the block read is copied in.
     */
    default void readInto(int blockIndex, long from, long to, BlockBuffer into) {
        into.fill(read(blockIndex, from, to));
    }

    @Override
    void close();

    /** How a reader over another one reads rows {@code [from, to)} as block {@code blockIndex}. */
    @FunctionalInterface
    interface Read {
        RowBlock read(int blockIndex, long from, long to);
    }

    /**
     * A reader that reads with {@code read} (which usually reads {@code under} and does something to the block) and,
     * closed, closes {@code under}: what a source over another source opens.
     */
    static RowReader over(RowReader under, Read read) {
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                return read.read(blockIndex, from, to);
            }

            @Override
            public void close() {
                under.close();
            }
        };
    }
}
