/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.service;

import io.scflux.core.Printable;
import io.scflux.core.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The folder a service serves, and the two rules that keep its clients inside it. A dataset is a readable
 * {@code .h5ad} (or Cell Ranger {@code .h5}) named directly in the folder whose real path, links resolved, lies in the
 * folder's real path: a link that leads out of the folder is refused like {@code ../x.h5ad}, where following it would
 * let a client read any file the server can. And what the service tells clients names files relative to the folder:
 * the engine's messages name them by absolute path, which would show where the server keeps its data; the two other
 * folders a job may name (scflux's cache folder, where a CSC input's row-major copy and spills go, and the system's
 * temporary folder) are named {@code <cache>} and {@code <tmp>}.
 */
final class DataFolder {

    private final Settings settings;
    private final Path path;
    private final Path real;
    /** The folder as given and as its real path, the longer first, each matched as a whole path. */
    private final List<Pattern> prefixes;
    /** The cache and temporary folders, as given and real, the longer first, each with what it is written as. */
    private final List<Map.Entry<Pattern, String>> outside;

    /**
     * The folder {@code folder}, which must exist, whose files are read under {@code settings} (the cache folder
     * among them, which messages name {@code <cache>}); resolving its real path touches the file system.
     */
    DataFolder(Path folder, Settings settings) {
        this.settings = settings;
        this.path = folder.toAbsolutePath().normalize();
        try {
            this.real = path.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.prefixes = spellings(path);
        this.outside = Stream.of(
                        Map.entry(settings.cacheDir(), "<cache>"),
                        Map.entry(Path.of(System.getProperty("java.io.tmpdir")), "<tmp>"))
                .flatMap(e -> spellings(e.getKey()).stream().map(p -> Map.entry(p, e.getValue())))
                .sorted(Comparator.comparingInt((Map.Entry<Pattern, String> e) ->
                                e.getKey().pattern().length())
                        .reversed())
                .toList();
    }

    /**
     * The patterns of {@code folder}, absolute, as given and as its real path where it exists, each as it is and as
     * {@link Printable#escape} writes it in a message, the longer first; each matches a whole path, group 1 being
     * the {@code /} after it or nothing. Touches the file system.
     */
    private static List<Pattern> spellings(Path folder) {
        Path given = folder.toAbsolutePath().normalize();
        Path resolved;
        try {
            resolved = given.toRealPath();
        } catch (IOException e) {
            resolved = given;
        }
        return Stream.of(given, resolved)
                .filter(p -> p.getNameCount() > 0)
                .map(Path::toString)
                .flatMap(p -> Stream.of(p, Printable.escape(p)))
                .distinct()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .map(p -> Pattern.compile(Pattern.quote(p) + "(/|(?![\\w.-]))"))
                .toList();
    }

    /** The folder, absolute, as given (links not resolved): where the service writes its outputs. */
    Path path() {
        return path;
    }

    /**
     * The real path of the dataset {@code name}, or an {@link InvalidField} for {@code field}: a name with a folder
     * part ({@code ../x.h5ad}, {@code /etc/x}), a name that is no readable {@code .h5ad} or {@code .h5} file, and a
     * link whose target is outside the folder are all refused. Touches the file system.
     */
    Path dataset(@Nullable String name, String field) {
        if (name == null || name.isEmpty()) {
            throw new InvalidField(field, field + " must name an .h5ad file of the data folder");
        }
        Path file;
        try {
            file = path.resolve(name).normalize();
        } catch (InvalidPathException e) {
            throw new InvalidField(field, field + " " + name + " is not a file name");
        }
        if (!path.equals(file.getParent()) || !name.equals(file.getFileName().toString())) {
            throw new InvalidField(field, field + " " + name + " is outside the data folder");
        }
        InvalidField unreadable = new InvalidField(
                field,
                field + " " + name + " is not a readable .h5ad (or Cell " + "Ranger .h5) file of the data folder");
        if (!(name.endsWith(".h5ad") || name.endsWith(".h5"))) {
            throw unreadable;
        }
        Path target;
        try {
            target = file.toRealPath();
        } catch (IOException e) {
            throw unreadable;
        }
        if (!target.startsWith(real)) {
            throw new InvalidField(
                    field,
                    field + " " + name + " is not a dataset of the data folder: it links to a " + "file outside it");
        }
        if (!Files.isRegularFile(target) || !Files.isReadable(target)) {
            throw unreadable;
        }
        return target;
    }

    /** The names of the folder's datasets, sorted. Touches the file system. */
    List<String> datasets() {
        try (Stream<Path> files = Files.list(path)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(this::isDataset)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private boolean isDataset(String name) {
        try {
            dataset(name, "name");
            return true;
        } catch (InvalidField e) {
            return false;
        }
    }

    /**
     * {@code message} with the folder's absolute path taken out of the paths it names ({@code /srv/data/x.h5ad}
     * becomes {@code x.h5ad}, the folder itself {@code .}), as given and as its real path; then the cache folder's
     * and the temporary folder's written {@code <cache>} and {@code <tmp>} ({@code <cache>/.tmp-transposed-1.part}).
     */
    @Nullable
    String scrub(String message) {
        if (message == null) {
            return null;
        }
        String out = message;
        for (Pattern prefix : prefixes) {
            out = prefix.matcher(out).replaceAll(m -> m.group(1).isEmpty() ? "." : "");
        }
        for (Map.Entry<Pattern, String> named : outside) {
            String name = named.getValue();
            out = named.getKey().matcher(out).replaceAll(m -> Matcher.quoteReplacement(name + m.group(1)));
        }
        return out;
    }

    /** The settings the service's files are read and written under (the run context's). */
    Settings settings() {
        return settings;
    }
}
