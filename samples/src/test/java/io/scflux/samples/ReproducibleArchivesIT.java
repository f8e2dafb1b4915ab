/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@code package} archives carries the pom's {@code project.build.outputTimestamp}, not the clock or the checkout's
 * file modes, so that two builds of one commit give the same bytes: scflux's own entries in {@code scflux.jar} (and
 * {@code scflux-spark.jar} with the spark profile) have that time, and every entry of the distribution's tar.gz has
 * that time and a fixed mode (0755 for {@code bin/scflux} and folders, 0644 for the rest). Entries copied from
 * dependencies keep the times their own jars hold, which are as fixed.
 */
class ReproducibleArchivesIT {

    private static final Path TARGET = Path.of("target").toAbsolutePath();

    /** The pom's timestamp, which failsafe passes as it is written there. */
    private static Instant outputTimestamp() {
        String value = System.getProperty("scflux.outputTimestamp");
        assertTrue(value != null && !value.isBlank(), "failsafe passes scflux.outputTimestamp from the pom");
        return Instant.parse(value);
    }

    @ParameterizedTest
    @ValueSource(strings = {"scflux.jar", "scflux-spark.jar"})
    void scfluxEntriesCarryTheFixedTime(String name) throws IOException {
        Path jar = TARGET.resolve(name);
        if (name.equals("scflux-spark.jar") && !Files.exists(jar)) {
            return; // built by -Pspark only
        }
        assertTrue(Files.isRegularFile(jar), jar + " is built by package");
        // a zip entry's time is a wall-clock time without a zone; the build writes the timestamp's UTC wall clock
        LocalDateTime expected = LocalDateTime.ofInstant(outputTimestamp(), ZoneOffset.UTC);
        List<String> other = new ArrayList<>();
        int checked = 0;
        try (JarFile file = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                if (!entry.getName().equals("META-INF/MANIFEST.MF")
                        && !entry.getName().startsWith("io/scflux/")) {
                    continue;
                }
                checked++;
                LocalDateTime wall =
                        LocalDateTime.ofInstant(Instant.ofEpochMilli(entry.getTime()), ZoneId.systemDefault());
                if (!wall.equals(expected)) {
                    other.add(entry.getName() + " " + wall);
                }
            }
        }
        assertTrue(checked > 100, name + ": scflux's classes and the manifest are in it (" + checked + ")");
        assertEquals(
                List.of(),
                other.subList(0, Math.min(5, other.size())),
                name + ": " + other.size() + " entries not at " + expected);
    }

    @Test
    void distributionCarriesTheFixedTimeAndModes() throws IOException {
        Path archive;
        try (DirectoryStream<Path> found = Files.newDirectoryStream(TARGET, "scflux-*.tar.gz")) {
            List<Path> all = new ArrayList<>();
            found.forEach(all::add);
            assertEquals(1, all.size(), "one distribution in " + TARGET + ": " + all);
            archive = all.get(0);
        }
        long expected = outputTimestamp().getEpochSecond();
        List<String> wrong = new ArrayList<>();
        int files = 0;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(archive))) {
            byte[] header = new byte[512];
            String longName = null;
            while (in.readNBytes(header, 0, 512) == 512 && !allZero(header)) {
                char type = (char) header[156];
                long size = octal(header, 124, 12);
                byte[] data = in.readNBytes((int) ((size + 511) / 512 * 512));
                if (type == 'L') { // GNU long name: the name of the entry that follows
                    longName = text(data, 0, (int) size);
                    continue;
                }
                if (type == 'x' || type == 'g') { // pax headers describe the entry after them
                    continue;
                }
                String name = longName != null ? longName : ustarName(header);
                longName = null;
                boolean directory = type == '5';
                int mode = (int) octal(header, 100, 8) & 07777;
                int wanted = directory || name.endsWith("/bin/scflux") ? 0755 : 0644;
                long mtime = octal(header, 136, 12);
                if (mode != wanted || mtime != expected) {
                    wrong.add(name + " mode " + Integer.toOctalString(mode) + " mtime " + mtime);
                }
                if (!directory) {
                    files++;
                }
            }
        }
        assertTrue(files > 5, archive + " holds the distribution (" + files + " files)");
        assertEquals(List.of(), wrong, archive + ": entries not at mtime " + expected + " with their fixed mode");
    }

    private static String ustarName(byte[] header) {
        String name = text(header, 0, 100);
        String prefix = text(header, 345, 155);
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    private static String text(byte[] bytes, int from, int length) {
        int end = from;
        while (end < from + length && end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, from, end - from, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] bytes, int from, int length) {
        String digits = text(bytes, from, length).trim();
        return digits.isEmpty() ? 0 : Long.parseLong(digits, 8);
    }

    private static boolean allZero(byte[] bytes) {
        for (byte b : bytes) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
