/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Settings;
import io.scflux.core.TemporaryFiles;
import io.scflux.core.TemporaryName;
import io.scflux.io.H5ad;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code scflux cache [list|clear]}: the row-major copies scflux keeps of CSC matrices (to read them by rows), in
 * {@code $SCFLUX_CACHE_DIR} or a folder of the user's own in {@code $TMPDIR}: where they are and how large, and
 * removing them along with what killed runs left there. A folder another user owns, or that group or others may
 * write, is refused, as every run refuses it.
 */
@Command(
        name = "cache",
        mixinStandardHelpOptions = true,
        description = {
            "Lists (list, the default) or removes (clear) the row-major copies scflux makes of CSC "
                    + "matrices to read them by rows; clear also removes the unfinished copies and spills of runs that "
                    + "were killed. They live in $SCFLUX_CACHE_DIR, else in scflux-cache-<uid> in $TMPDIR (else in the "
                    + "system's temporary folder), a folder of your own (mode 0700): one copy per CSC matrix read, "
                    + "replaced when that file changes, and checked against its checksums whenever it is read."
        })
final class CacheCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "list|clear",
            defaultValue = "list",
            description = "What to do (default: list).")
    private String action;

    @Override
    public Integer call() throws IOException {
        if (!action.equals("list") && !action.equals("clear")) {
            throw new ParameterException(spec.commandLine(), "cache takes list or clear, got '" + action + "'");
        }
        PrintWriter out = spec.commandLine().getOut();
        Settings settings = GlobalOptions.of(spec).settings();
        Path dir = settings.cacheDir();
        TemporaryFiles.checkScratchDir(dir);
        List<Path> stores = H5ad.transposedStores(settings);
        long bytes = 0;
        for (Path p : stores) {
            bytes += Files.size(p);
        }
        switch (action) {
            case "list" -> {
                out.printf(
                        "%s: %d cop%s of CSC matrices, %,d bytes (bound: %,d bytes)%n",
                        dir, stores.size(), stores.size() == 1 ? "y" : "ies", bytes, settings.cacheMaxBytes());
                for (Path p : stores) {
                    out.printf("  %s  %,d bytes%n", p.getFileName(), Files.size(p));
                }
            }
            case "clear" -> {
                for (Path p : stores) {
                    Files.deleteIfExists(p);
                }
                int left =
                        Files.isDirectory(dir) ? TemporaryName.removeStale(dir).size() + removeEarlierParts(dir) : 0;
                out.printf(
                        "removed %d cop%s of CSC matrices (%,d bytes) from %s%s%n",
                        stores.size(),
                        stores.size() == 1 ? "y" : "ies",
                        bytes,
                        dir,
                        left == 0
                                ? ""
                                : String.format(
                                        ", and %d unfinished file%s of killed runs", left, left == 1 ? "" : "s"));
            }
            default ->
                throw new ParameterException(spec.commandLine(), "cache takes list or clear, got '" + action + "'");
        }
        out.flush();
        return 0;
    }

    /**
     * Removes the unfinished copies and spills that scflux named {@code .tmp-*.part} before their names held their
     * owner's pid (a {@code kill -9} left them for good); asked for by the user, as the copies are.
     */
    private static int removeEarlierParts(Path dir) throws IOException {
        int removed = 0;
        try (DirectoryStream<Path> parts = Files.newDirectoryStream(dir, ".tmp-*.part")) {
            for (Path p : parts) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(p)) {
                    removed++;
                }
            }
        }
        return removed;
    }
}
