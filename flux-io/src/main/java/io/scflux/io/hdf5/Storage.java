/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.scflux.core.ScfluxFormatException;
import io.scflux.io.safety.FileStamp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One reader's open handle on a file: positional reads through its own {@link FileChannel} (the fast path for
 * contiguous data and unfiltered chunks), a few recently decoded chunks, and, only for filters scflux does not decode
 * itself, a jhdf handle opened on first use. Every byte read is counted in the matrix's {@link ReadStats}.
 *
 * <p>Public because the file matrices and the transposed store, above this package, read chunks through it.
 */
public final class Storage implements AutoCloseable {

    private static final int DECODED_CHUNKS_KEPT = 8;

    private final Path file;
    private final FileStamp stamp;
    /** Opened again when an interrupted read closed it ({@link #read}); null once this storage is closed. */
    private volatile @Nullable FileChannel channel;

    private final ReadStats stats;
    private final Map<ChunkKey, CompletableFuture<ByteBuffer>> decoded = new Recent<>(DECODED_CHUNKS_KEPT);
    private @Nullable HdfFile hdf;

    private Storage(Path file, FileStamp stamp, FileChannel channel, ReadStats stats) {
        this.file = file;
        this.stamp = stamp;
        this.channel = channel;
        this.stats = stats;
    }

    /** Opens {@code file} for reading, failing if it is no longer the file that was described. */
    public static Storage open(Path file, FileStamp expected, ReadStats stats) {
        return new Storage(file, expected, channel(file, expected), stats);
    }

    /** A channel on {@code file}, checked to be the file {@code expected} describes. */
    private static FileChannel channel(Path file, FileStamp expected) {
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot open: " + e.getMessage(), e);
        }
        try {
            FileStamp now = FileStamp.of(file);
            if (!now.equals(expected)) {
                throw new ScfluxFormatException(
                        file.toString(),
                        "/",
                        "the file changed since it was opened (" + expected + " then, " + now + " now); open it again");
            }
        } catch (RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
        return ch;
    }

    Path file() {
        return file;
    }

    public ReadStats stats() {
        return stats;
    }

    /** Fills {@code dst} (position to limit) from {@code position}; {@code what} names the HDF5 path for errors. */
    void read(long position, ByteBuffer dst, String what) {
        int wanted = dst.remaining();
        long at = position;
        boolean reopened = false;
        try {
            while (dst.hasRemaining()) {
                FileChannel ch = channel;
                if (ch == null) {
                    throw new ClosedChannelException();
                }
                int n;
                try {
                    n = ch.read(dst, at);
                } catch (AsynchronousCloseException e) {
                    // a thread interrupted in a read (a cancelled pass, or an interrupt that Reactor's dispose of a
                    // finished task lets land on a pooled thread) closes the channel under every reader: open it
                    // again, once, and read on; a closed storage stays closed
                    if (reopened || channel == null) {
                        throw e;
                    }
                    reopened = true;
                    Thread.interrupted();
                    reopen(ch);
                    continue;
                }
                if (n < 0) {
                    throw new ScfluxFormatException(
                            file.toString(),
                            what,
                            "file truncated: expected " + wanted + " bytes at offset " + position
                                    + " but the file ends at " + ch.size());
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + what + ": read failed: " + e.getMessage(), e);
        }
        stats.addBytes(wanted);
    }

    /**
     * Chunk {@code chunk} of {@code array}, decoded by {@code decoder} unless this reader decoded it recently or is
     * decoding it on another thread, which this thread then waits for: concurrent reads of neighbouring blocks share
     * one decode of the chunk they both need. Before waiting, this thread runs {@code meanwhile} (null: nothing), the
     * decode of a chunk the next reads will need, so that two readers of one chunk still decode in parallel.
     */
    ByteBuffer decodedChunk(Object array, long chunk, Supplier<ByteBuffer> decoder, @Nullable Runnable meanwhile) {
        ChunkKey key = new ChunkKey(array, chunk);
        CompletableFuture<ByteBuffer> mine = new CompletableFuture<>();
        CompletableFuture<ByteBuffer> pending = claim(key, mine);
        if (pending == null) {
            decode(key, mine, decoder);
            pending = mine;
        } else if (!pending.isDone() && meanwhile != null) {
            meanwhile.run();
        }
        ByteBuffer b;
        try {
            b = pending.join();
        } catch (CompletionException e) {
            // the decoding thread failed: this one reports the same failure
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return b.duplicate().order(b.order());
    }

    /** Decodes chunk {@code chunk} of {@code array} and keeps it, unless it is kept or being decoded already. */
    void prefetchChunk(Object array, long chunk, Supplier<ByteBuffer> decoder) {
        ChunkKey key = new ChunkKey(array, chunk);
        CompletableFuture<ByteBuffer> mine = new CompletableFuture<>();
        if (claim(key, mine) == null) {
            try {
                decode(key, mine, decoder);
            } catch (RuntimeException e) {
                // not kept: whoever reads the chunk decodes it again and reports the failure
            }
        }
    }

    /** The chunk's kept or pending decode, or null when {@code mine} was kept for it, to be completed by the caller. */
    private synchronized CompletableFuture<ByteBuffer> claim(ChunkKey key, CompletableFuture<ByteBuffer> mine) {
        return decoded.putIfAbsent(key, mine);
    }

    private void decode(ChunkKey key, CompletableFuture<ByteBuffer> pending, Supplier<ByteBuffer> decoder) {
        try {
            pending.complete(decoder.get());
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                decoded.remove(key, pending);
            }
            pending.completeExceptionally(e);
            throw e;
        }
    }

    /** The jhdf view of a dataset, for chunks whose filters only jhdf decodes. */
    synchronized Dataset jhdfDataset(String path) {
        if (hdf == null) {
            hdf = Hdf5.open(file);
        }
        return hdf.getDatasetByPath(path);
    }

    /** Replaces {@code closed}, unless another reader did or this storage was closed. */
    private synchronized void reopen(FileChannel closed) {
        if (channel == closed) {
            channel = channel(file, stamp);
        }
    }

    @Override
    public synchronized void close() {
        FileChannel ch = channel;
        channel = null;
        if (ch != null) {
            closeQuietly(ch);
        }
        if (hdf != null) {
            hdf.close();
            hdf = null;
        }
        decoded.clear();
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing was written; a failed close of a read-only channel loses nothing
        }
    }

    private record ChunkKey(Object array, long chunk) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ChunkKey k && k.array == array && k.chunk == chunk;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(array) * 31 + Long.hashCode(chunk);
        }
    }
}
