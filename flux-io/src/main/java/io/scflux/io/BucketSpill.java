package io.scflux.io;

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
 * One bucket's entries (row, column, value) on their way to the row-major copy of a CSC input
 * ({@link TransposedStore}), appended through a buffer to a {@link TemporaryFiles temporary file} of the cache folder
 * and read back once in the order written. Each block the file is written in carries a CRC32C checksum kept in memory
 * ({@link BlockSums}) and checked as it is read back: entries changed on disk meanwhile are refused, never copied.
 */
final class BucketSpill implements AutoCloseable {

    /** Bytes of a record: int row, int column, float value. */
    static final int RECORD = 12;
    /** Bytes of a block: a whole number of records, about 256 KiB. */
    static final int BLOCK = (1 << 18) - (1 << 18) % RECORD;

    /** Takes the records read back. */
    interface Sink {
        void accept(int row, int col, float value);
    }

    private final Path file;
    private final String source;
    private final FileChannel channel;
    private final ByteBuffer pending = ByteBuffer.allocate(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
    private final BlockSums sums = new BlockSums();
    private long written;

    private BucketSpill(Path file, String source, FileChannel channel) {
        this.file = file;
        this.source = source;
        this.channel = channel;
    }

    /**
     * A new spill in {@code dir}.
     *
     * @param dir the cache folder
     * @param source the input whose entries it holds ({@code file:element}), for messages
     * @return the spill, to close
     * @throws IOException when the file cannot be created
     */
    static BucketSpill open(Path dir, String source) throws IOException {
        Path file = TemporaryFiles.newFile(dir, "spill");
        try {
            return new BucketSpill(file, source, FileChannel.open(file, StandardOpenOption.WRITE,
                    StandardOpenOption.READ));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            TemporaryFiles.remove(file);
            throw e;
        }
    }

    /** The spill's file. */
    Path file() {
        return file;
    }

    /** Appends one entry. */
    void add(int row, int col, float value) throws IOException {
        if (!pending.hasRemaining()) {
            writePending();
        }
        pending.putInt(row).putInt(col).putFloat(value);
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
        ByteBuffer buf = ByteBuffer.allocate(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
        long size = channel.size();
        if (size != written) {
            throw changed("/", "holds " + size + " bytes, " + written + " were written");
        }
        int block = 0;
        for (long pos = 0; pos < size; pos += buf.limit(), block++) {
            buf.clear().limit((int) Math.min(BLOCK, size - pos));
            while (buf.hasRemaining()) {
                if (channel.read(buf, pos + buf.position()) < 0) {
                    throw changed("/", "ends at byte " + (pos + buf.position()) + ", " + written + " were written");
                }
            }
            buf.flip();
            if (!sums.matches(block, buf)) {
                throw changed("block " + block + " (bytes " + pos + ".." + (pos + buf.limit()) + ")",
                        "does not match its CRC32C checksum");
            }
            while (buf.remaining() >= RECORD) {
                sink.accept(buf.getInt(), buf.getInt(), buf.getFloat());
            }
        }
    }

    private ScfluxFormatException changed(String where, String what) {
        return new ScfluxFormatException(file.toString(), where, what + ": this spill of " + source
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
