/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The temporary files being written in this JVM (outputs, the transposed store's parts, operators' spills), deleted
 * by a shutdown hook when it exits before they are done: a SIGTERM or Ctrl-C (a batch scheduler's time limit) leaves
 * none behind. The hook is registered with the first file.
 *
 * <p>The hook only unlinks: the HDF5 library may still be writing the file on its thread, which Linux allows, and the
 * library is never called from the hook (its one thread may be busy, and it is not thread-safe). A file is recorded
 * and created under one lock that the hook takes too, so the hook never runs between the two; once it has run, no
 * file is created. A SIGKILL runs no hook: every temporary file is named with its owner's pid
 * ({@link TemporaryName}), and {@link TemporaryName#removeStale} deletes those of dead processes, at the next write in an output's
 * folder and whenever the cache folder is opened ({@link #openScratchDir}).
 */
public final class TemporaryFiles {

    private static final Logger LOG = LoggerFactory.getLogger(TemporaryFiles.class);
    private static final Set<Path> WRITING = ConcurrentHashMap.newKeySet();
    private static boolean exiting;

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(TemporaryFiles::deleteAll, "scflux-temporary-files"));
        } catch (IllegalStateException e) {
            exiting = true; // the JVM is already exiting: every file is refused
        }
    }

    private TemporaryFiles() {}

    /**
     * The cache folder {@code dir} ({@link Settings#cacheDir}), ready to write in: created owner-only (mode 0700) when
     * missing, refused when another user owns it or group or others may write it (the folder a symlink names
     * included), and rid of the temporary files that killed runs left there ({@link TemporaryName#removeStale}).
     *
     * @param dir the cache folder
     * @return the cache folder
     * @throws UncheckedIOException one line naming the folder when it cannot be created or is refused
     */
    public static Path openScratchDir(Path dir) {
        try {
            CacheFolder.open(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        TemporaryName.removeStale(dir);
        return dir;
    }

    /**
     * Refuses the cache folder {@code dir}, when it exists, as {@link #openScratchDir} would; creates nothing.
     *
     * @param dir the cache folder
     * @throws UncheckedIOException one line naming the folder and what is wrong with it
     */
    public static void checkScratchDir(Path dir) {
        if (Files.exists(dir) || Files.isSymbolicLink(dir)) {
            try {
                CacheFolder.check(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
        }
    }

    /**
     * Records {@code file} and runs {@code create}, which creates it, and returns what it returns; refused once the
     * JVM is exiting. The shutdown hook waits for a creation under way (an {@code H5Fcreate}, short).
     */
    public static synchronized <T> T create(Path file, Supplier<T> create) {
        if (exiting) {
            throw new CancellationException("not writing " + file + ": the JVM is exiting");
        }
        WRITING.add(file);
        return create.get();
    }

    /**
     * A new empty file in {@code dir} named by {@link TemporaryName}'s rule for {@code base}, readable and writable by its
     * owner only, recorded as {@link #create} records one: the transposed store's parts, operators' spills.
     *
     * @param dir the folder, which exists
     * @param base what the file holds, e.g. {@code wilcoxon}
     * @return the file
     * @throws IOException when it cannot be created
     */
    public static synchronized Path newFile(Path dir, String base) throws IOException {
        if (exiting) {
            throw new CancellationException("not writing in " + dir + ": the JVM is exiting");
        }
        Path file = TemporaryName.beside(dir.resolve(base));
        if (Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } else {
            Files.createFile(file);
        }
        WRITING.add(file);
        return file;
    }

    /** Forgets {@code file}: renamed onto its target, or deleted. */
    public static void remove(Path file) {
        WRITING.remove(file);
    }

    /** The files being written now. */
    public static Set<Path> writing() {
        return Set.copyOf(WRITING);
    }

    private static synchronized void deleteAll() {
        exiting = true;
        for (Path f : WRITING) {
            try {
                if (Files.deleteIfExists(f)) {
                    LOG.info("removed the unfinished {} at exit", f);
                }
            } catch (IOException e) {
                LOG.warn(
                        "could not remove the unfinished {} at exit ({}); the next write in its folder will",
                        f,
                        e.getMessage());
            }
        }
    }
}
