package io.scflux.samples.cli;

import io.scflux.core.TemporaryFiles;
import io.scflux.io.FileGuard;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A small output (a plot, a table) written under a temporary name beside it and renamed when complete, the name as
 * the .h5ad writer names its own ({@code .<target>.scflux-<pid>-<hex>.tmp}, so a crash's leftover is removed the same
 * way), created as any new file is (the umask's permissions, not {@code createTempFile}'s owner-only 0600).
 */
final class AtomicFile {

    /** What writes the content. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFile() {
    }

    /** Writes {@code target}; refused, before anything is written, when it is a folder, a FIFO or a device. */
    static void write(Path target, Content content) throws IOException {
        FileGuard.checkOutput(target);
        Path absolute = target.toAbsolutePath();
        Path temporary = absolute.resolveSibling(TemporaryFiles.temporaryName(absolute.getFileName().toString()));
        try {
            try (OutputStream out = Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                content.writeTo(out);
            }
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }
}
