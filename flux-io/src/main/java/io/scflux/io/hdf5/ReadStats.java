/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import java.util.concurrent.atomic.LongAdder;

/** Counters of what readers took from a file: blocks decoded, bytes read from storage, chunks decompressed. */
public final class ReadStats {

    private final LongAdder blocks = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder chunks = new LongAdder();

    public void addBlock() {
        blocks.increment();
    }

    void addBytes(long n) {
        bytes.add(n);
    }

    void addChunk() {
        chunks.increment();
    }

    /** Blocks decoded from the file. */
    public long blocksRead() {
        return blocks.sum();
    }

    /** Bytes taken from storage (compressed size for filtered chunks), indptr included. */
    public long bytesRead() {
        return bytes.sum();
    }

    /** Chunks read or decompressed. */
    public long chunksRead() {
        return chunks.sum();
    }

    @Override
    public String toString() {
        return "ReadStats[blocks " + blocksRead() + ", bytes " + bytesRead() + ", chunks " + chunksRead() + "]";
    }
}
