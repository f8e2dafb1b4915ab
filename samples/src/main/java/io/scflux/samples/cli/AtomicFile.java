/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.TemporaryFiles;
import io.scflux.core.TemporaryName;
import io.scflux.io.safety.FileGuard;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * A small output (a plot, a table) written under a temporary name beside it and renamed when complete, the name by
 * {@link TemporaryName}'s rule as the .h5ad writer names its own (so a crash's leftover is removed the same way, and
 * this write removes those of killed runs first; the shutdown hook of {@link TemporaryFiles} removes it on a SIGTERM),
 * created as any new file is (the umask's permissions, not {@code createTempFile}'s owner-only 0600).
 */
final class AtomicFile {

    /** What writes the content. */
    @FunctionalInterface
    interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicFile() {}

    /** Writes {@code target}; refused, before anything is written, when it is a folder, a FIFO or a device. */
    static void write(Path target, Content content) throws IOException {
        FileGuard.checkOutput(target);
        Path absolute = target.toAbsolutePath();
        Path temporary = TemporaryName.beside(absolute);
        // an absolute path that checkOutput let through names a file, never the root: it has a parent
        TemporaryName.removeStale(Objects.requireNonNull(absolute.getParent(), "the folder of " + absolute));
        try {
            try (OutputStream out = create(temporary)) {
                content.writeTo(out);
            }
            Files.move(temporary, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(temporary);
            TemporaryFiles.remove(temporary);
        }
    }

    /** Creates {@code temporary}, recorded with {@link TemporaryFiles} so that a SIGTERM meanwhile removes it. */
    private static OutputStream create(Path temporary) throws IOException {
        try {
            return TemporaryFiles.create(temporary, () -> {
                try {
                    return Files.newOutputStream(temporary, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
