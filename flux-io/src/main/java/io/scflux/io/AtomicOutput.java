package io.scflux.io;

import io.scflux.core.TemporaryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CancellationException;
import java.util.function.Function;

/**
 * The HDF5 file behind one write: created under a temporary name beside the target
 * ({@link TemporaryFiles#temporaryName}: {@code .<target>.scflux-<pid>-<hex>.tmp}, which the next write in the folder
 * removes should a crash leave it behind) and renamed onto the target only by {@link #commit}; {@link #abort} deletes
 * it, and so does {@link TemporaryFiles}' shutdown hook should the JVM exit first. The target is never opened, so it may be an input that is still being read until the commit.
 */
final class AtomicOutput {

    private final Path target;
    private final Path temporary;
    private NativeHdf5 file;
    private volatile WriteBehind writeBehind;
    private volatile boolean aborted;

    AtomicOutput(Path target) {
        this.target = target.toAbsolutePath();
        this.temporary = this.target.resolveSibling(
                TemporaryFiles.temporaryName(this.target.getFileName().toString()));
    }

    /** Creates the temporary file; refused once {@link #abort} ran (a cancel that overtook the open). */
    NativeHdf5 open(WriteOptions options) {
        return open(options, DiskSpace::of);
    }

    /** As {@link #open(WriteOptions)}, the room for the temporary file measured by {@code space}. */
    NativeHdf5 open(WriteOptions options, Function<Path, DiskSpace> space) {
        if (aborted) {
            throw new CancellationException("write of " + target + " cancelled before its file was created");
        }
        if (!Files.isDirectory(target.getParent())) {
            throw NativeHdf5.ioFailure(target + ": the folder does not exist");
        }
        removeStale(target.getParent());
        int gzip = options.compression() == WriteOptions.Compression.GZIP ? options.gzipLevel() : -1;
        file = TemporaryFiles.create(temporary,
                () -> NativeHdf5.create(temporary, target.getFileName().toString(), gzip, space.apply(temporary)));
        writeBehind = WriteBehind.start(temporary);
        return file;
    }

    /**
     * Deletes the temporary files that killed writers left in {@code folder}: {@link TemporaryFiles#removeStale}, the
     * rule every temporary of scflux is named and cleaned by. A live process's file is never touched.
     */
    static void removeStale(Path folder) {
        TemporaryFiles.removeStale(folder);
    }

    NativeHdf5 file() {
        return file;
    }

    /** The temporary file that {@link #commit} renames onto the target. */
    Path temporary() {
        return temporary;
    }

    /** Closes the file, forces it to disk and renames it onto the target; on failure, aborts. */
    void commit() {
        try {
            stopWriteBehind();
            file.close();
            try (FileChannel ch = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            TemporaryFiles.remove(temporary);
        } catch (IOException e) {
            UncheckedIOException failure = new UncheckedIOException(target + ": " + e.getMessage(), e);
            abort(failure);
            throw failure;
        } catch (RuntimeException e) {
            abort(e);
            throw e;
        }
    }

    private synchronized void stopWriteBehind() {
        if (writeBehind != null) {
            writeBehind.stop();
            writeBehind = null;
        }
    }

    /**
     * Closes the file if it is open and deletes it; the target is untouched. Anything that goes wrong on the way is
     * added to {@code cause}, the reason for aborting.
     */
    void abort(Throwable cause) {
        aborted = true;
        stopWriteBehind();
        NativeHdf5.closeAfter(file, cause);
        try {
            // emptied first: should a descriptor of it outlive the close, its space still comes back at once
            if (Files.isRegularFile(temporary, LinkOption.NOFOLLOW_LINKS)) {
                try (FileChannel ch = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                    ch.truncate(0);
                }
            }
            Files.deleteIfExists(temporary);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
        TemporaryFiles.remove(temporary);
    }
}
