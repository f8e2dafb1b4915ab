/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The CRC32C checksums of the blocks a spill file was written in, block after block, kept in memory (never in the
 * file, which others with access to the cache folder could change along with its sums) and checked when the blocks are
 * read back: a spill read back changed (a bad disk, or someone) is refused instead of used. CRC32C is the JDK's
 * ({@link CRC32C}), computed with the processor's CRC instructions where there are some: a few GB/s.
 */
public final class BlockSums {

    private int[] sums = new int[64];
    private int count;

    /**
     * Records the checksum of block {@link #size()}: {@code block}'s bytes from its position to its limit, which
     * are left as they were.
     *
     * @param block the bytes written
     * @return the block's number
     */
    public int add(ByteBuffer block) {
        if (count == sums.length) {
            sums = Arrays.copyOf(sums, count * 2);
        }
        sums[count] = of(block);
        return count++;
    }

    /** @return how many blocks were recorded */
    public int size() {
        return count;
    }

    /**
     * Whether block {@code index} read back as {@code block} (position to limit, left as they were) holds what was
     * written.
     *
     * @param index the block's number
     * @param block the bytes read back
     * @return true when its checksum is the one recorded
     */
    public boolean matches(int index, ByteBuffer block) {
        return index < count && sums[index] == of(block);
    }

    /**
     * The CRC32C of {@code bytes} from position to limit, which are left as they were.
     *
     * @param bytes the bytes
     * @return their checksum
     */
    public static int of(ByteBuffer bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes.duplicate());
        return (int) crc.getValue();
    }
}
