/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one rule for the name of a file written beside its target and renamed onto it when complete:
 * {@code .<target>.scflux-<pid>-<hex>.tmp}, hidden, recognisable as the unfinished output of {@code <target>}, owned by
 * the process {@code <pid>} and told apart from that process's other writes by {@code <hex>} (a random 64-bit number).
 * The .h5ad writer and the command line's plots and tables name their files so, and the Python package names its own
 * temporary outputs so too, with its own pid: {@link #removeStale} (run before every write in a folder) then removes
 * the leftovers of any of them killed before it could clean up.
 *
 * <p>A file name has at most {@value #MAX_NAME_BYTES} bytes (UTF-8) on the file systems scflux writes to; a target
 * name too long to leave room for the mark is shortened, at a character's boundary, to the prefix that fits, so that
 * every valid target name has a valid temporary name. The Python package's {@code scflux._files.temporary_name} spells
 * the same rule.
 */
public final class TemporaryName {

    /** The longest file name, in bytes, that Linux's and macOS's file systems take. */
    public static final int MAX_NAME_BYTES = 255;

    private static final Logger LOG = LoggerFactory.getLogger(TemporaryName.class);

    /** A temporary file's name: the owner's pid is group 1. */
    private static final Pattern NAME = Pattern.compile("\\..+\\.scflux-(\\d{1,18})-[0-9a-f]{1,16}\\.tmp");

    private TemporaryName() {}

    /**
     * A new temporary name beside {@code target}, owned by this process.
     *
     * @param target the file to be written
     * @return the absolute path of the temporary file, in {@code target}'s folder
     */
    public static Path beside(Path target) {
        Path absolute = target.toAbsolutePath();
        return absolute.resolveSibling(of(
                absolute.getFileName().toString(),
                ProcessHandle.current().pid(),
                ThreadLocalRandom.current().nextLong()));
    }

    /**
     * The temporary name of a target, by the rule.
     *
     * @param targetName the target's file name (no folder)
     * @param pid the process that writes it
     * @param random what tells this write from the process's others
     * @return {@code .<targetName>.scflux-<pid>-<hex of random>.tmp}, {@code targetName} shortened to fit
     *         {@value #MAX_NAME_BYTES} bytes
     */
    public static String of(String targetName, long pid, long random) {
        String mark = ".scflux-" + pid + "-" + Long.toHexString(random) + ".tmp";
        int room = MAX_NAME_BYTES - 1 - mark.length();
        return "." + prefix(targetName, room) + mark;
    }

    /** The longest prefix of {@code name} whose UTF-8 encoding has at most {@code bytes} bytes, whole characters. */
    private static String prefix(String name, int bytes) {
        if (name.getBytes(StandardCharsets.UTF_8).length <= bytes) {
            return name;
        }
        int used = 0;
        int end = 0;
        while (end < name.length()) {
            int cp = name.codePointAt(end);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (used + size > bytes) {
                break;
            }
            used += size;
            end += Character.charCount(cp);
        }
        return name.substring(0, end);
    }

    /**
     * The process that owns a temporary file.
     *
     * @param fileName a file name (no folder)
     * @return the owner's pid when {@code fileName} is a temporary name by the rule, else empty
     */
    public static OptionalLong owner(String fileName) {
        Matcher m = NAME.matcher(fileName);
        return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    /**
     * Deletes the temporary files that killed writers (a JVM, or a Python call) left in {@code folder}: those named by
     * the rule whose owner is no longer alive on this machine. A live process's file is never touched; a folder that
     * cannot be listed is left as it is (the write itself reports real problems).
     *
     * @param folder the folder of a write about to start, or the cache folder
     * @return the files removed
     */
    public static List<Path> removeStale(Path folder) {
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, ".*.scflux-*.tmp")) {
            for (Path f : files) {
                OptionalLong owner = owner(f.getFileName().toString());
                if (owner.isPresent()
                        && ProcessHandle.of(owner.getAsLong())
                                .map(p -> !p.isAlive())
                                .orElse(true)
                        && Files.deleteIfExists(f)) {
                    LOG.info("removed {}, the unfinished file of a run that was killed", f);
                    removed.add(f);
                }
            }
        } catch (IOException | RuntimeException e) {
            // a folder we cannot list or read: leave it
        }
        return removed;
    }
}
