package io.scflux.samples.report;

import io.scflux.core.ClusterException;
import io.scflux.core.InvalidValueException;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.ScfluxFormatException;
import java.io.IOException;
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

    private ErrorMessage() {
    }

    /** The message of the first format or I/O error among {@code e} and its causes, else {@code e}'s. */
    public static String of(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ScfluxFormatException || t instanceof MemoryBudgetExceededException
                    || t instanceof ClusterException) {
                return t.getMessage();
            }
            if (t instanceof NoSuchFileException f) {
                return f.getFile() + ": no such file";
            }
            if (t instanceof AccessDeniedException f) {
                return f.getFile() + ": permission denied";
            }
            if (t instanceof FileSystemException f) {
                return f.getFile() + ": " + (f.getReason() != null ? f.getReason() : f.getClass().getSimpleName());
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
        return new ScfluxFormatException(input.toString(), "/X", e.getMessage(), e);
    }
}
