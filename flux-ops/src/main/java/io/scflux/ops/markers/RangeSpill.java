/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import io.scflux.core.BlockSums;
import io.scflux.core.MemoryAccount;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.TemporaryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The Wilcoxon test's gathered values on disk, a region per range of genes, so that one pass over X serves every
 * range: each record a long (a value, its cell's label and its gene within the range), 8 bytes. Regions are sized from
 * the genes' counts, written through a small buffer per range and read back range by range; the file is a
 * {@link TemporaryFiles temporary file} in the scratch directory, deleted on close or at exit (or, after a SIGKILL,
 * by the next run that opens the folder: its name holds this process's pid).
 *
 * <p>Each range's region is written in blocks of {@link #BUFFERED} records (its last one shorter) whose CRC32C
 * checksums are kept in memory ({@link BlockSums}) and checked as the blocks are read back: values changed on disk
 * meanwhile are refused, never ranked.
 */
final class RangeSpill implements AutoCloseable {

    /** A record: a long. */
    static final int RECORD = Long.BYTES;
    /** Records buffered per range before they are written. */
    private static final int BUFFERED = 4096;
    /** Records read back at a time. */
    private static final int CHUNK = 1 << 16;

    /** Takes records read back: {@code records[i]} for {@code i < n}. */
    interface Sink {
        void accept(long[] records, int n);
    }

    private final Path file;
    private final FileChannel channel;
    /** Per range, its region's first record and the next record written. */
    private final long[] start;

    private final long[] cursor;
    private final ByteBuffer[] buffers;
    private final MemoryAccount account;
    private final long accounted;
    /** Per range, the checksums of the blocks written, and whether its last (short) block was written. */
    private final BlockSums[] sums;

    private final boolean[] ended;

    private RangeSpill(Path file, FileChannel channel, long[] totals, MemoryAccount account, long accounted) {
        this.file = file;
        this.channel = channel;
        this.start = new long[totals.length + 1];
        for (int r = 0; r < totals.length; r++) {
            start[r + 1] = start[r] + totals[r];
        }
        this.cursor = Arrays.copyOf(start, totals.length);
        this.buffers = new ByteBuffer[totals.length];
        this.account = account;
        this.accounted = accounted;
        this.sums = new BlockSums[totals.length];
        for (int r = 0; r < totals.length; r++) {
            sums[r] = new BlockSums();
        }
        this.ended = new boolean[totals.length];
    }

    /**
     * A spill for ranges of {@code totals[r]} records in {@code dir}, which exists
     * ({@link TemporaryFiles#openScratchDir}); refused with the room it needs when the file system has less.
     */
    static RangeSpill open(Path dir, long[] totals) {
        long records = 0;
        for (long t : totals) {
            records += t;
        }
        long bytes = records * RECORD;
        MemoryAccount account = MemoryAccount.host();
        long buffered = (long) totals.length * BUFFERED * RECORD + (long) CHUNK * RECORD * 2;
        account.reserve(buffered);
        try {
            long usable = Files.getFileStore(dir).getUsableSpace();
            if (usable < bytes) {
                throw new IOException(dir + " has " + (usable >> 20) + " MiB free; the wilcoxon ranks spill "
                        + (bytes >> 20) + " MiB of gathered values there (set SCFLUX_CACHE_DIR to a larger disk)");
            }
            Path file = TemporaryFiles.newFile(dir, "wilcoxon");
            try {
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                return new RangeSpill(file, channel, totals, account, buffered);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(file);
                TemporaryFiles.remove(file);
                throw e;
            }
        } catch (IOException e) {
            account.release(buffered);
            throw new UncheckedIOException(e.getMessage(), e);
        } catch (RuntimeException e) {
            account.release(buffered);
            throw e;
        }
    }

    /** Appends {@code records[i]} for {@code from <= i < to} to range {@code range}'s region. */
    void append(int range, long[] records, int from, int to) {
        ByteBuffer b = buffers[range];
        if (b == null) {
            b = buffers[range] = ByteBuffer.allocate(BUFFERED * RECORD).order(ByteOrder.LITTLE_ENDIAN);
        }
        for (int i = from; i < to; i++) {
            if (!b.hasRemaining()) {
                drain(range);
            }
            b.putLong(records[i]);
        }
    }

    /** Writes every buffered record. */
    void flush() {
        for (int r = 0; r < buffers.length; r++) {
            if (buffers[r] != null) {
                drain(r);
                buffers[r] = null;
            }
        }
    }

    private void drain(int range) {
        ByteBuffer b = buffers[range];
        b.flip();
        long records = b.remaining() / RECORD;
        if (records == 0) {
            return;
        }
        if (ended[range]) {
            throw new IllegalStateException(
                    "range " + range + " of " + file + " was appended to after its last " + "block was written");
        }
        // every block but a range's last holds BUFFERED records, where reads look for it
        ended[range] = records < BUFFERED;
        sums[range].add(b);
        if (cursor[range] + records > start[range + 1]) {
            throw new IllegalStateException("genes of range " + range + " hold more non-zero values than the first pass"
                    + " over X counted: X changed between passes");
        }
        try {
            long position = cursor[range] * RECORD;
            while (b.hasRemaining()) {
                position += channel.write(b, position);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
        cursor[range] += records;
        b.clear();
    }

    /**
     * Reads range {@code range}'s records back into {@code sink}, a chunk at a time, each of its blocks checked
     * against the checksum taken when it was written.
     */
    void read(int range, Sink sink) {
        ByteBuffer b = ByteBuffer.allocate(CHUNK * RECORD).order(ByteOrder.LITTLE_ENDIAN);
        long[] records = new long[CHUNK];
        long blocks = (cursor[range] - start[range] + BUFFERED - 1) / BUFFERED;
        if (blocks != sums[range].size()) {
            throw new IllegalStateException(file + ": range " + range + " spans " + blocks + " blocks but "
                    + sums[range].size() + " were written");
        }
        try {
            for (long at = start[range]; at < cursor[range]; ) {
                int n = (int) Math.min(CHUNK, cursor[range] - at);
                b.clear().limit(n * RECORD);
                long position = at * RECORD;
                while (b.hasRemaining()) {
                    int read = channel.read(b, position);
                    if (read < 0) {
                        throw new IOException("ends before record " + at);
                    }
                    position += read;
                }
                b.flip();
                verify(range, at, b);
                b.asLongBuffer().get(records, 0, n);
                sink.accept(records, n);
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Refuses the records read back from record {@code at} of range {@code range} into {@code b} (a whole number of
     * blocks, or the range's end) unless each block holds what was written.
     */
    private void verify(int range, long at, ByteBuffer b) {
        for (int off = 0; off < b.limit(); off += BUFFERED * RECORD) {
            ByteBuffer block = b.duplicate().position(off).limit(Math.min(b.limit(), off + BUFFERED * RECORD));
            int index = (int) ((at - start[range]) / BUFFERED) + off / (BUFFERED * RECORD);
            if (!sums[range].matches(index, block)) {
                long from = (start[range] + (long) index * BUFFERED) * RECORD;
                throw new ScfluxFormatException(
                        file.toString(),
                        "range " + range + ", block " + index + " (bytes " + from + ".." + (from + block.remaining())
                                + ")",
                        "does not match its CRC32C checksum: this "
                                + "spill of X's values for the wilcoxon ranks changed after scflux wrote it; nothing of it "
                                + "was ranked");
            }
        }
    }

    /** Deletes the file and releases the buffers. */
    @Override
    public void close() {
        try {
            channel.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        } finally {
            TemporaryFiles.remove(file);
            account.release(accounted);
        }
    }
}
