/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.scflux.core.BlockSums;
import io.scflux.core.ScfluxFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CRC32C checksums of one array of a copy scflux keeps in its cache folder (a CSC input's row-major copy), one per
 * chunk of {@code TransposedStore.CHUNK} elements, and their check whenever a chunk is read back ({@link StoredArray}
 * reads such an array chunk by chunk): a copy changed after it was written, by a bad disk or by someone, is refused
 * with one line naming the copy, the array, the chunk and the input it was copied from, and removed, so that the next
 * read of the input builds it again instead of using it.
 *
 * <p>Public because the transposed store, above this package, stamps its copies with these sums.
 */
public final class CopySums {

    private static final Logger LOG = LoggerFactory.getLogger(CopySums.class);

    private final Path copy;
    private final String source;
    private final int[] sums;

    /**
     * @param copy the copy's file
     * @param source what it is a copy of ({@code file:element}), for messages
     * @param sums the checksum of each chunk, in order
     */
    public CopySums(Path copy, String source, int[] sums) {
        this.copy = copy;
        this.source = source;
        this.sums = sums;
    }

    /** How many chunks the sums cover. */
    int chunks() {
        return sums.length;
    }

    /**
     * Refuses chunk {@code chunk} of the array at {@code path}, read back as {@code stored} (position to limit,
     * untouched) from byte {@code at} of the copy, unless its checksum is the one written; a refused copy is removed
     * first.
     */
    void verify(String path, long chunk, long at, ByteBuffer stored) {
        if (chunk < sums.length && sums[(int) chunk] == BlockSums.of(stored)) {
            return;
        }
        boolean removed;
        try {
            removed = Files.deleteIfExists(copy);
        } catch (IOException e) {
            removed = false;
            LOG.warn(
                    "could not remove {}, a changed row-major copy ({}); remove it by hand or run scflux cache clear",
                    copy,
                    e.getMessage());
        }
        throw new ScfluxFormatException(
                copy.toString(),
                path,
                "chunk " + chunk + " (bytes " + at + ".."
                        + (at + stored.remaining()) + ") does not match its CRC32C checksum: this row-major copy of "
                        + source
                        + " changed after scflux wrote it; "
                        + (removed
                                ? "it was removed, and the next read of the input " + "builds it again"
                                : "remove it (scflux cache clear) and read the input again"));
    }

    /**
     * Computes the sums of an array as it is written, front to back in pieces of any size: each chunk's checksum is
     * taken from the bytes in memory, before they reach the disk.
     */
    public static final class Writer {

        private final long chunkBytes;
        private final CRC32C crc = new CRC32C();
        private int[] sums = new int[16];
        private int count;
        private long inChunk;

        /** @param chunkBytes the bytes of a chunk (every one but the last, which may be shorter) */
        public Writer(long chunkBytes) {
            this.chunkBytes = chunkBytes;
        }

        /** Takes the next bytes of the array: {@code b}'s from position to limit, which are left as they were. */
        public void update(ByteBuffer b) {
            ByteBuffer rest = b.duplicate();
            while (rest.hasRemaining()) {
                int n = (int) Math.min(rest.remaining(), chunkBytes - inChunk);
                ByteBuffer piece = rest.duplicate();
                piece.limit(piece.position() + n);
                crc.update(piece);
                rest.position(rest.position() + n);
                inChunk += n;
                if (inChunk == chunkBytes) {
                    finishChunk();
                }
            }
        }

        /** The sums of every chunk taken, the last (shorter) one included. */
        public int[] sums() {
            if (inChunk > 0) {
                finishChunk();
            }
            return Arrays.copyOf(sums, count);
        }

        private void finishChunk() {
            if (count == sums.length) {
                sums = Arrays.copyOf(sums, count * 2);
            }
            sums[count++] = (int) crc.getValue();
            crc.reset();
            inChunk = 0;
        }
    }
}
