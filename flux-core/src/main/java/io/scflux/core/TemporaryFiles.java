package io.scflux.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
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
 * file is created. A SIGKILL runs no hook: outputs' temporary files are deleted at the next write in their folder.
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

    private TemporaryFiles() {
    }

    /**
     * Where scflux keeps what it writes besides its outputs (CSC files' row-major copies, operators' spills):
     * {@code -Dscflux.cache.dir}, {@code $SCFLUX_CACHE_DIR} or {@code <tmpdir>/scflux-cache}.
     */
    public static Path scratchDir() {
        String dir = System.getProperty("scflux.cache.dir");
        if (dir == null || dir.isEmpty()) {
            dir = System.getenv("SCFLUX_CACHE_DIR");
        }
        return dir == null || dir.isEmpty() ? Paths.get(System.getProperty("java.io.tmpdir"), "scflux-cache")
                : Paths.get(dir);
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
     * A new empty file in {@code dir}, named as {@link Files#createTempFile(Path, String, String)} names it, recorded
     * as {@link #create} records one: the transposed store's parts, operators' spills.
     */
    public static synchronized Path newFile(Path dir, String prefix, String suffix) throws IOException {
        if (exiting) {
            throw new CancellationException("not writing in " + dir + ": the JVM is exiting");
        }
        Path file = Files.createTempFile(dir, prefix, suffix);
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
                LOG.warn("could not remove the unfinished {} at exit ({}); the next write in its folder will", f,
                        e.getMessage());
            }
        }
    }
}
