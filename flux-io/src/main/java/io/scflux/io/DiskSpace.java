package io.scflux.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongSupplier;

/**
 * The room a write may still use, checked before the HDF5 library is handed more to write. The library keeps written
 * chunks and metadata in caches and writes them later, at the latest when closing; should the disk fill up (or the
 * file reach the process's file size limit, {@code ulimit -f}) meanwhile, those closes fail half-way and leave the
 * library holding objects it can neither release nor shut down from (the process then crashes at exit). So a write
 * is refused, as a full disk, while there is still room for everything the caches may hold: the file then closes
 * cleanly and its temporary name is removed.
 */
final class DiskSpace {

    /** Room kept for the metadata the library writes at close (object headers, B-tree nodes, heaps). */
    static final long METADATA_MARGIN = 8L << 20;

    private final Path file;
    private final LongSupplier usable;
    private final long sizeLimit;
    private long cached;

    /**
     * The room for {@code file}: {@code usable} the free bytes of its file system, {@code sizeLimit} the largest file
     * the process may write ({@link Long#MAX_VALUE}: none).
     */
    DiskSpace(Path file, LongSupplier usable, long sizeLimit) {
        this.file = file.toAbsolutePath();
        this.usable = usable;
        this.sizeLimit = sizeLimit;
    }

    /** The room for {@code file} (about to be created): its file system's free space and this process's limit. */
    static DiskSpace of(Path file) {
        Path folder = file.toAbsolutePath().getParent();
        FileStore store;
        try {
            store = Files.getFileStore(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(folder + ": cannot read its free space: " + e.getMessage(), e);
        }
        return new DiskSpace(file, () -> {
            try {
                return store.getUsableSpace();
            } catch (IOException e) {
                return Long.MAX_VALUE;          // unknown: the write itself will say if the disk is full
            }
        }, fileSizeLimit(Path.of("/proc/self/limits")));
    }

    /** The soft "Max file size" of {@code limits} (Linux's /proc/self/limits), or none when unlimited or unknown. */
    static long fileSizeLimit(Path limits) {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max file size")) {
                    String soft = line.substring("Max file size".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: no limit known
        }
        return Long.MAX_VALUE;
    }

    /** Counts {@code bytes} more that the library may hold in a cache before writing them (a dataset's chunk cache). */
    void cache(long bytes) {
        cached += bytes;
    }

    /**
     * Fails, as a full disk, unless {@code bytes} more can be written with room left for what the caches hold and the
     * metadata margin. {@code what} names the file and element for the message.
     */
    void require(long bytes, String what) {
        long needed = bytes + cached + METADATA_MARGIN;
        long free = usable.getAsLong();
        if (free < needed) {
            throw NativeHdf5.ioFailure(what + ": the disk is full: no space left on device in " + file.getParent()
                    + " (" + free + " bytes free, about " + needed + " needed to write on and close the file)");
        }
        if (sizeLimit != Long.MAX_VALUE) {
            long size = size();
            if (size + needed > sizeLimit) {
                throw NativeHdf5.ioFailure(what + ": the file would grow past the size this process may write "
                        + "(ulimit -f: " + sizeLimit + " bytes) in " + file.getParent() + " (" + size
                        + " bytes written, about " + needed + " more needed)");
            }
        }
    }

    private long size() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
