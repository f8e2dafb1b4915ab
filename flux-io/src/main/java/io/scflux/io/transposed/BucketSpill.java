/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.transposed;

import io.scflux.core.BlockSums;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.TemporaryFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One bucket's entries (row, column, value as the copy stores it: 4 or 8 bytes) on their way to the row-major copy of a CSC input
 * ({@link TransposedStore}), appended through a buffer to a {@link TemporaryFiles temporary file} of the cache folder
 * and read back once in the order written. Each block the file is written in carries a CRC32C checksum kept in memory
 * ({@link BlockSums}) and checked as it is read back: entries changed on disk meanwhile are refused, never copied.
 */
final class BucketSpill implements AutoCloseable {

    /** Takes the records read back: each value as the bits it was added as. */
    interface Sink {
        void accept(int row, int col, long value);
    }

    private final Path file;
    private final String source;
    private final FileChannel channel;
    /** Bytes of a value: 4 (the low 32 bits of what is added) or 8. */
    private final int width;
    /** Bytes of a record: int row, int column, the value. */
    private final int record;
    /** Bytes of a block: a whole number of records, about 256 KiB. */
    private final int block;

    private final ByteBuffer pending;
    private final BlockSums sums = new BlockSums();
    private long written;

    private BucketSpill(Path file, String source, FileChannel channel, int width) {
        this.file = file;
        this.source = source;
        this.channel = channel;
        this.width = width;
        this.record = 8 + width;
        this.block = (1 << 18) - (1 << 18) % record;
        this.pending = ByteBuffer.allocate(block).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * A new spill in {@code dir}.
     *
     * @param dir the cache folder
     * @param source the input whose entries it holds ({@code file:element}), for messages
     * @param width the bytes of a value, 4 or 8
     * @return the spill, to close
     * @throws IOException when the file cannot be created
     */
    static BucketSpill open(Path dir, String source, int width) throws IOException {
        Path file = TemporaryFiles.newFile(dir, "spill");
        try {
            return new BucketSpill(
                    file, source, FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ), width);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            TemporaryFiles.remove(file);
            throw e;
        }
    }

    /** Bytes of a block the file is written and checked in. */
    int blockBytes() {
        return block;
    }

    /** The spill's file. */
    Path file() {
        return file;
    }

    /** Appends one entry: its value's low 32 bits when values take 4 bytes. */
    void add(int row, int col, long value) throws IOException {
        if (!pending.hasRemaining()) {
            writePending();
        }
        pending.putInt(row).putInt(col);
        if (width == 4) {
            pending.putInt((int) value);
        } else {
            pending.putLong(value);
        }
    }

    private void writePending() throws IOException {
        pending.flip();
        if (pending.hasRemaining()) {
            sums.add(pending);
            while (pending.hasRemaining()) {
                written += channel.write(pending, written);
            }
        }
        pending.clear();
    }

    /**
     * Writes what is buffered, then reads every entry back into {@code sink} in the order added, each block checked
     * against the checksum taken when it was written.
     *
     * @param sink takes the entries
     * @throws IOException when the file cannot be read
     * @throws ScfluxFormatException naming the file, the block and the input when a block is not what was written
     */
    void readBack(Sink sink) throws IOException {
        writePending();
        ByteBuffer buf = ByteBuffer.allocate(block).order(ByteOrder.LITTLE_ENDIAN);
        long size = channel.size();
        if (size != written) {
            throw changed("/", "holds " + size + " bytes, " + written + " were written");
        }
        int index = 0;
        for (long pos = 0; pos < size; pos += buf.limit(), index++) {
            buf.clear().limit((int) Math.min(block, size - pos));
            while (buf.hasRemaining()) {
                if (channel.read(buf, pos + buf.position()) < 0) {
                    throw changed("/", "ends at byte " + (pos + buf.position()) + ", " + written + " were written");
                }
            }
            buf.flip();
            if (!sums.matches(index, buf)) {
                throw changed(
                        "block " + index + " (bytes " + pos + ".." + (pos + buf.limit()) + ")",
                        "does not match its CRC32C checksum");
            }
            while (buf.remaining() >= record) {
                sink.accept(buf.getInt(), buf.getInt(), width == 4 ? buf.getInt() : buf.getLong());
            }
        }
    }

    private ScfluxFormatException changed(String where, String what) {
        return new ScfluxFormatException(
                file.toString(),
                where,
                what + ": this spill of " + source
                        + "'s row-major copy changed after scflux wrote it; nothing of it was kept");
    }

    /** Closes and deletes the file. */
    @Override
    public void close() throws IOException {
        try {
            channel.close();
            Files.deleteIfExists(file);
        } finally {
            TemporaryFiles.remove(file);
        }
    }
}
