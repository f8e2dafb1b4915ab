/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import com.sun.management.UnixOperatingSystemMXBean;
import io.scflux.core.ClusterException;
import io.scflux.core.InvalidValueException;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.Printable;
import io.scflux.core.ScfluxFormatException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * How a failure reads to whoever meets it: one line, the message of its first format or I/O error. Shared by the
 * command line ({@code scflux: error: <line>}), the service (a failed job's event, a problem's detail) and the fuzzer,
 * so that each words the same failure alike.
 */
public final class ErrorMessage {

    /** The reason the operating system gives for EMFILE. */
    private static final String TOO_MANY_OPEN_FILES = "Too many open files";

    private ErrorMessage() {}

    /**
     * The message of the first format or I/O error among {@code e} and its causes, else {@code e}'s: one line, what
     * it quotes of a file escaped ({@link Printable}).
     *
     * @param e the failure
     * @return the line to print after {@code scflux: error: }
     */
    public static String of(Throwable e) {
        String message = message(e);
        if (message.endsWith(TOO_MANY_OPEN_FILES)) {
            message += ": raise the limit of open files (ulimit -n" + openFileLimit() + ")";
        }
        return Printable.escape(message);
    }

    /** {@code " is N"}: the limit of open files of this process, where the JVM tells it. */
    private static String openFileLimit() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                ? " is " + unix.getMaxFileDescriptorCount()
                : "";
    }

    /**
     * The line for an {@link OutOfMemoryError}: what the heap holds and the settings that size it, with a heap twice
     * the size this JVM has to try.
     *
     * @param e the error (its message says which memory ran out: the Java heap, direct buffers, threads)
     * @return one line
     */
    public static String outOfMemory(OutOfMemoryError e) {
        long mb = Runtime.getRuntime().maxMemory() >> 20;
        String what = e.getMessage() != null ? e.getMessage() : "Java heap space";
        if (what.contains("native thread")) {
            return "out of memory (" + what + "): lower --threads, or raise the process limit (ulimit -u)";
        }
        return "out of memory (" + what + ") in a heap of " + mb + " MB, which holds obs and var, the block cache "
                + "of --cache-mb and the blocks in flight of --threads and --chunk-nnz: give a larger heap ("
                + largerHeap(2 * Runtime.getRuntime().maxMemory()) + ") or lower --cache-mb and --threads";
    }

    /**
     * The setting that gives scflux's JVM a heap of at least {@code bytes}.
     *
     * @param bytes the heap wanted
     * @return {@code SCFLUX_JAVA_OPTS=-Xmx<N>g}, in whole GiB, at least 1
     */
    public static String largerHeap(long bytes) {
        return "SCFLUX_JAVA_OPTS=-Xmx" + Math.max(1, (bytes + (1L << 30) - 1) >> 30) + "g";
    }

    private static String message(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutOfMemoryError m) {
                return outOfMemory(m);
            }
            if (t instanceof ScfluxFormatException
                    || t instanceof MemoryBudgetExceededException
                    || t instanceof ClusterException) {
                // made with a message (their constructors take one); the fallback keeps this line from failing
                return t.getMessage() != null ? t.getMessage() : t.toString();
            }
            if (t instanceof NoSuchFileException f) {
                return f.getFile() + ": no such file";
            }
            if (t instanceof AccessDeniedException f) {
                return f.getFile() + ": permission denied";
            }
            if (t instanceof FileSystemException f) {
                return f.getFile() + ": "
                        + (f.getReason() != null ? f.getReason() : f.getClass().getSimpleName());
            }
            if (t instanceof IOException || t instanceof IllegalArgumentException) {
                return t.getMessage() != null ? t.getMessage() : t.toString();
            }
        }
        Throwable root = e instanceof CommandLine.ExecutionException && e.getCause() != null ? e.getCause() : e;
        return root.getMessage() != null ? root.getClass().getSimpleName() + ": " + root.getMessage() : root.toString();
    }

    /** {@code e}, a value a step refused, as the format error of {@code input}'s X: the file the value is in. */
    public static ScfluxFormatException inFile(Path input, InvalidValueException e) {
        return new ScfluxFormatException(input.toString(), "/X", String.valueOf(e.getMessage()), e);
    }
}
