/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.TemporaryFiles;
import io.scflux.core.TemporaryName;
import io.scflux.io.safety.WriteBehind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The HDF5 file behind one write: created under a temporary name beside the target ({@link TemporaryName}'s
 * {@code .<target>.scflux-<pid>-<hex>.tmp}, recognisable when a crash leaves one behind) and renamed onto the
 * target only by {@link #commit}; {@link #abort} deletes it, and so does {@link TemporaryFiles}' shutdown hook should
 * the JVM exit first. The target is never opened, so it may be an input that is still being read until the commit.
 */
final class AtomicOutput {

    private final Path target;
    /** The target's folder as the caller named it, for messages. */
    private final String folder;

    private final Path temporary;
    private @Nullable NativeHdf5 file;
    private volatile @Nullable WriteBehind writeBehind;
    private volatile boolean aborted;

    AtomicOutput(Path target) {
        this.target = target.toAbsolutePath();
        this.folder = target.getParent() == null ? "." : target.getParent().toString();
        this.temporary = TemporaryName.beside(this.target);
    }

    /** Creates the temporary file; refused once {@link #abort} ran (a cancel that overtook the open). */
    NativeHdf5 open(WriteOptions options) {
        return open(options, DiskSpace::of, OutputSize.Estimate.UNKNOWN);
    }

    /**
     * As {@link #open(WriteOptions)}, the room for the temporary file measured by {@code space} and checked against
     * {@code size}, the estimate of the file, before it is created (see {@link DiskSpace#reserve}).
     */
    NativeHdf5 open(WriteOptions options, Function<Path, DiskSpace> space, OutputSize.Estimate size) {
        if (aborted) {
            throw new CancellationException("write of " + target + " cancelled before its file was created");
        }
        Path dir = target.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw IoFailure.of(target + ": the folder does not exist");
        }
        TemporaryName.removeStale(dir);
        int gzip = options.compression() == WriteOptions.Compression.GZIP ? options.gzipLevel() : -1;
        String name = target.getFileName().toString();
        DiskSpace room = space.apply(temporary);
        room.reserve(size, name, folder);
        file = TemporaryFiles.create(temporary, () -> NativeHdf5.create(temporary, name, gzip, room));
        writeBehind = WriteBehind.start(temporary);
        return file;
    }

    @Nullable
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
            Objects.requireNonNull(file, "the file, opened before its commit").close();
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
