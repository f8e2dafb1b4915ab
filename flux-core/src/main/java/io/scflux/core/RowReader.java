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

    @Override
    void close();
}
