/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.safety;

import io.scflux.core.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What is checked of a file before scflux reads or writes it, so that nothing is lost behind the user's back.
 *
 * <ul>
 *   <li>An output is a regular file or a new name: a folder, a FIFO, a socket or a device ({@code /dev/null}) is
 *   refused before anything is written, as the rename that ends a write would replace it.</li>
 *   <li>An output is none of the files the data being written are read from ({@link
 *   io.scflux.core.BlockSource#files}), whatever the spelling: the same path, a symbolic or a hard link, the same
 *   inode. Rewriting an input is {@code H5ad.writeInPlace}, through a temporary copy, on purpose.</li>
 *   <li>HDF5's file lock is honoured as h5py honours it. The HDF5 library (1.10 and later) takes {@code flock(2)}
 *   on every file it opens, {@code LOCK_SH} to read and {@code LOCK_EX} to write, and refuses a file another process
 *   holds in a conflicting mode ({@code unable to lock file}); {@code HDF5_USE_FILE_LOCKING=FALSE} turns that off,
 *   here too. Java's {@code FileChannel.lock} takes {@code fcntl} locks, a family Linux keeps apart from
 *   {@code flock}'s, so it cannot see h5py's lock: the lock table the kernel publishes, {@code /proc/locks}, is
 *   read instead. A file that another process holds open for writing (a write lock of any family) is refused as an
 *   input and as the file of an in-place rewrite, naming the process; where there is no {@code /proc/locks} (not
 *   Linux), nothing is checked. Readers are no obstacle: a rewrite replaces the file's name, and a reader keeps
 *   reading the file it opened.</li>
 *   <li>An in-place rewrite keeps the file's permissions, and its owner and group where the process may set them
 *   (root may; another user keeps a group it belongs to).</li>
 * </ul>
 */
public final class FileGuard {

    /** The kernel's table of file locks (Linux). */
    private static final Path LOCKS = Path.of("/proc/locks");

    /** The lock families the kernel lists that a process holds (leases and delegations are not locks). */
    private static final Set<String> LOCK_FAMILIES = Set.of("FLOCK", "POSIX", "OFDLCK");

    private FileGuard() {}

    /**
     * Refuses {@code target} as an output unless it is a regular file (through a symbolic link, the file it names)
     * or a name nothing has yet.
     *
     * @param target the file to be written
     * @throws IllegalArgumentException when it is a folder, a FIFO, a socket or a device
     */
    public static void checkOutput(Path target) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class);
        } catch (IOException e) {
            return; // a new name (or a dangling link): the write creates it, and reports what else is wrong
        }
        if (!a.isRegularFile()) {
            throw new IllegalArgumentException(
                    target + " is " + kind(target, a) + ", not a file to write: name a " + "regular file or a new one");
        }
    }

    /** What a file that is not a regular file is, for a message. */
    private static String kind(Path file, BasicFileAttributes a) {
        if (a.isDirectory()) {
            return "a folder";
        }
        try {
            String type = switch ((Integer) Files.getAttribute(file, "unix:mode") & 0170000) {
                case 0010000 -> "a FIFO (named pipe)";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                case 0140000 -> "a socket";
                default -> null;
            };
            if (type != null) {
                return type;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // no unix view: say what is known
        }
        return "not a regular file";
    }

    /**
     * Why {@code file} cannot be read as an input: it does not exist, is a folder, or is not a regular file (a FIFO,
     * a device or a socket, which would block or never end); null when it is a regular file.
     *
     * @param file a file to read
     * @return the error that says why not, naming the file, or null
     */
    public static @Nullable IOException notAnInput(Path file) {
        if (Files.isRegularFile(file)) {
            return null;
        }
        if (!Files.exists(file)) {
            return new NoSuchFileException(file.toString());
        }
        return new FileSystemException(
                file.toString(),
                null,
                Files.isDirectory(file)
                        ? "is a directory"
                        : "is not a regular file (a FIFO, a device or a socket): scflux reads .h5ad and .h5 files");
    }

    /**
     * Refuses to write {@code target} when it is one of {@code reads} under any spelling: the same path, a symbolic
     * or hard link to it, the same inode. Files that do not exist are not compared (nothing of them can be lost).
     *
     * @param target the file to be written
     * @param reads the files the data being written are read from ({@code AnnData.files()})
     * @throws IllegalArgumentException naming both files when the target is one of them
     */
    public static void checkNotRead(Path target, Collection<Path> reads) {
        readFrom(target, reads).ifPresent(in -> {
            throw new IllegalArgumentException("cannot write " + target + ": it is " + in + ", which the data being "
                    + "written are read from; write another file, or rewrite it in place (H5ad.writeInPlace, "
                    + "--in-place)");
        });
    }

    /**
     * The one of {@code reads} that {@code target} is, under any spelling (see {@link #checkNotRead}).
     *
     * @param target the file to be written
     * @param reads the files the data being written are read from
     * @return the first of {@code reads} that is the same file as {@code target}; empty when none is
     */
    public static Optional<Path> readFrom(Path target, Collection<Path> reads) {
        return reads.stream().filter(in -> sameFile(target, in)).findFirst();
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false; // one of them does not exist, or cannot be seen: it cannot be the other
        }
    }

    /**
     * Refuses {@code file} while another process holds it open for writing (h5py's {@code File(f, "r+")}: an HDF5
     * write lock), as h5py refuses it.
     *
     * @param file a file to read, or to rewrite in place
     * @param settings whether locks are honoured ({@link Settings#fileLocking}): not checked when they are not
     * @throws UncheckedIOException of a {@link FileSystemException} naming the file and the process that holds it
     */
    public static void checkNotLocked(Path file, Settings settings) {
        if (!settings.fileLocking()) {
            return;
        }
        OptionalLong holder = writeLockHolder(file);
        if (holder.isPresent()) {
            long pid = holder.getAsLong();
            String who = pid > 0
                    ? "process " + pid
                            + ProcessHandle.of(pid)
                                    .flatMap(p -> p.info().command())
                                    .map(c -> " (" + c + ")")
                                    .orElse("")
                    : "another process";
            throw new UncheckedIOException(new FileSystemException(
                    file.toString(),
                    null,
                    "is open for writing by " + who
                            + ", which holds its HDF5 file lock; close it there first (h5py: unable to lock file)"));
        }
    }

    /**
     * The process (its pid, or -1 when the kernel does not say: an open-file-description lock) that holds a write
     * lock on {@code file}, other than this one; empty when none does, or when the kernel's lock table cannot be read.
     */
    static OptionalLong writeLockHolder(Path file) {
        long dev;
        long ino;
        List<String> table;
        try {
            Map<String, Object> id = Files.readAttributes(file, "unix:dev,ino");
            if (!(id.get("dev") instanceof Long d) || !(id.get("ino") instanceof Long i)) {
                return OptionalLong.empty(); // a unix view without them
            }
            dev = d;
            ino = i;
            table = Files.readAllLines(LOCKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return OptionalLong.empty(); // no such file (the read says so), or no lock table on this system
        }
        String device = String.format("%02x:%02x", major(dev), minor(dev));
        long self = ProcessHandle.current().pid();
        for (String line : table) {
            // "1: FLOCK  ADVISORY  WRITE 14956 fe:00:2146722 0 EOF"; a waiter's line has "->" after the number
            String[] f = line.trim().split("\\s+");
            if (f.length < 6 || f[1].equals("->") || !LOCK_FAMILIES.contains(f[1]) || !f[3].equals("WRITE")) {
                continue;
            }
            int at = f[5].lastIndexOf(':');
            long pid;
            try {
                pid = Long.parseLong(f[4]);
                if (at < 0 || Long.parseLong(f[5].substring(at + 1)) != ino || pid == self) {
                    continue;
                }
            } catch (NumberFormatException e) {
                continue;
            }
            if (f[5].substring(0, at).equalsIgnoreCase(device) || holdsOpen(pid, file)) {
                return OptionalLong.of(pid);
            }
        }
        return OptionalLong.empty();
    }

    /** The major number of a device as {@code stat} gives it (glibc's encoding). */
    private static long major(long dev) {
        return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    }

    /** The minor number of a device as {@code stat} gives it (glibc's encoding). */
    private static long minor(long dev) {
        return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    }

    /**
     * Whether process {@code pid} has {@code file} open, by its descriptors: for a lock whose device the kernel names
     * otherwise than {@code stat} does (an overlay file system), where the inode alone could be another file's.
     */
    private static boolean holdsOpen(long pid, Path file) {
        if (pid <= 0) {
            return false;
        }
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                if (sameFile(fd, file)) {
                    return true;
                }
            }
        } catch (IOException | SecurityException e) {
            // another user's process: its descriptors are not ours to see
        }
        return false;
    }

    /**
     * The file an in-place rewrite of {@code file} replaces: the file a symbolic link names (the link stays a link),
     * which must be a regular file no other process holds open for writing.
     *
     * @param file the file to rewrite
     * @param settings whether another process's write lock is honoured
     * @return its real path
     */
    public static Path inPlaceTarget(Path file, Settings settings) {
        Path real;
        try {
            real = file.toRealPath();
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException(
                    new NoSuchFileException(file.toString(), null, "no such file to rewrite in place"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        checkOutput(real);
        checkNotLocked(real, settings);
        return real;
    }

    /**
     * Gives {@code copy} the permissions of {@code original}, and its owner and group where this process may set them
     * (a failure to is ignored: the copy then has this process's owner, as any file it writes).
     *
     * @param original the file being rewritten
     * @param copy its new content, not yet renamed onto it
     */
    public static void keepAttributes(Path original, Path copy) {
        PosixFileAttributeView view = Files.getFileAttributeView(copy, PosixFileAttributeView.class);
        if (view == null) {
            return; // not a POSIX file system: nothing to keep that the rename loses
        }
        PosixFileAttributes a;
        try {
            a = Files.readAttributes(original, PosixFileAttributes.class);
        } catch (IOException e) {
            throw new UncheckedIOException(original + ": " + e.getMessage(), e);
        }
        try {
            view.setOwner(a.owner());
        } catch (IOException e) {
            // only root gives a file away
        }
        try {
            view.setGroup(a.group());
        } catch (IOException e) {
            // a group this user is not in
        }
        try {
            view.setPermissions(a.permissions()); // after the owner: a change of owner may clear bits
        } catch (IOException e) {
            throw new UncheckedIOException(copy + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@link #checkOutput} and {@link #checkNotRead}: what every write of a container checks before it starts.
     *
     * @param target the file to be written
     * @param reads the files the data being written are read from ({@code AnnData.files()})
     * @throws IllegalArgumentException when {@code target} is not a file to write, or is one of {@code reads}
     */
    public static void checkTarget(Path target, Collection<Path> reads) {
        checkOutput(target);
        checkNotRead(target, reads);
    }
}
