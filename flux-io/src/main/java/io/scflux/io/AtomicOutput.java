package io.scflux.io;

import io.scflux.core.TemporaryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HDF5 file behind one write: created under a temporary name beside the target
 * ({@code .<target>.scflux-<pid>-<random>.tmp}, recognisable when a crash leaves one behind) and renamed onto the
 * target only by {@link #commit}; {@link #abort} deletes it, and so does {@link TemporaryFiles}' shutdown hook should
 * the JVM exit first. The target is never opened, so it may be an input that is still being read until the commit.
 */
final class AtomicOutput {

    private static final Logger LOG = LoggerFactory.getLogger(AtomicOutput.class);

    /** A temporary file's name: the owner's pid is group 1. */
    private static final Pattern TEMPORARY = Pattern.compile("\\..+\\.scflux-(\\d{1,18})-[0-9a-f]+\\.tmp");

    private final Path target;
    /** The target's folder as the caller named it, for messages. */
    private final String folder;
    private final Path temporary;
    private NativeHdf5 file;
    private volatile WriteBehind writeBehind;
    private volatile boolean aborted;

    AtomicOutput(Path target) {
        this.target = target.toAbsolutePath();
        this.folder = target.getParent() == null ? "." : target.getParent().toString();
        this.temporary = this.target.resolveSibling("." + this.target.getFileName() + ".scflux-"
                + ProcessHandle.current().pid() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".tmp");
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
        if (!Files.isDirectory(target.getParent())) {
            throw NativeHdf5.ioFailure(target + ": the folder does not exist");
        }
        removeStale(target.getParent());
        int gzip = options.compression() == WriteOptions.Compression.GZIP ? options.gzipLevel() : -1;
        String name = target.getFileName().toString();
        DiskSpace room = space.apply(temporary);
        room.reserve(size, name, folder);
        file = TemporaryFiles.create(temporary, () -> NativeHdf5.create(temporary, name, gzip, room));
        writeBehind = WriteBehind.start(temporary);
        return file;
    }

    /**
     * Deletes the temporary files that killed writers left in {@code folder}: those named as {@link AtomicOutput}
     * names them whose process is no longer alive on this machine. A live process's file is never touched.
     */
    static void removeStale(Path folder) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, ".*.scflux-*.tmp")) {
            for (Path f : files) {
                Matcher m = TEMPORARY.matcher(f.getFileName().toString());
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true)
                        && Files.deleteIfExists(f)) {
                    LOG.info("removed {}, the unfinished output of a run that was killed", f);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // a folder we cannot list or a name we cannot parse: leave it; the write itself reports real problems
        }
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
