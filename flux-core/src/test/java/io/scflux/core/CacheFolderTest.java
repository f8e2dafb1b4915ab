/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cache folder is one per user, by default in the JVM's {@code java.io.tmpdir} (the command line passes
 * {@code $TMPDIR}'s), created 0700, and refused, as ssh refuses such a folder, when
 * another user owns it or group or others may write it, itself or through a symlink.
 */
class CacheFolderTest {

    @TempDir
    Path tmp;

    /** This user's uid, as {@code id -u} prints it: independent of the JVM's view. */
    private static String idU() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return out;
    }

    private static boolean root() throws IOException, InterruptedException {
        return "0".equals(idU());
    }

    private static String mode(Path dir) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(dir));
    }

    private static String refusal(Path dir) {
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> TemporaryFiles.openScratchDir(dir));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    /** Prints the cache folder as a fresh JVM sees it, after opening it, and its mode. */
    static final class Probe {
        public static void main(String[] args) throws IOException {
            Path dir = TemporaryFiles.openScratchDir(Settings.DEFAULT.cacheDir());
            System.out.println(dir + " " + PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        }
    }

    @Test
    void theDefaultIsAFolderOfTheUsersOwnInTheJvmsTmpdirCreatedOwnerOnly() throws Exception {
        Path tmpdir = Files.createDirectories(tmp.resolve("my tmp"));
        ProcessBuilder pb = new ProcessBuilder(
                        Paths.get(System.getProperty("java.home"), "bin", "java")
                                .toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Djava.io.tmpdir=" + tmpdir,
                        Probe.class.getName())
                .redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        Path expected = tmpdir.resolve("scflux-cache-" + idU());
        List<String> lines = out.lines().toList();
        assertEquals(expected + " rwx------", lines.get(lines.size() - 1), out);
        assertEquals("rwx------", mode(expected));
    }

    @Test
    void aFolderSetByTheUserIsCreatedOwnerOnlyTooAndReused() throws IOException {
        Path dir = tmp.resolve("a").resolve("cache");
        assertEquals(dir, TemporaryFiles.openScratchDir(dir));
        assertEquals("rwx------", mode(dir));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(dir, TemporaryFiles.openScratchDir(dir), "readable by others, but only its owner writes it");
    }

    @Test
    void aFolderThatCannotBeCreatedIsOneLineNamingWhy() throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file"), "not a folder");
        Path dir = file.resolve("cache");
        assertEquals(
                dir + ": cannot create the cache folder (" + file + " is not a folder); set SCFLUX_CACHE_DIR to a "
                        + "folder you can write",
                refusal(dir));
        assertEquals(
                file + ": the cache folder is not a folder; remove it or set SCFLUX_CACHE_DIR to another folder",
                refusal(file));
    }

    @Test
    void aFolderGroupOrOthersMayWriteIsRefused() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwx---"));
        assertEquals(
                dir + ": the cache folder may be written by its group (mode rwxrwx---): scflux reads back what it "
                        + "keeps there as your data; chmod go-w it, or set SCFLUX_CACHE_DIR to a folder only you can write",
                refusal(dir));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xrwx"));
        assertTrue(refusal(dir).startsWith(dir + ": the cache folder may be written by others (mode rwxr-xrwx)"));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> TemporaryFiles.checkScratchDir(dir));
        assertTrue(e.getMessage().startsWith(dir + ": the cache folder may be written by others"), e.getMessage());
    }

    @Test
    void aSymlinkToSuchAFolderIsRefusedAndToAGoodOneFollowed() throws IOException {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), open);
        String m = refusal(link);
        assertTrue(
                m.startsWith(link + " (a symlink to " + open.toRealPath() + "): the cache folder may be written by "
                        + "others (mode rwxrwxrwx)"),
                m);
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwx------"));
        Path good = Files.createSymbolicLink(tmp.resolve("good"), mine);
        assertEquals(good, TemporaryFiles.openScratchDir(good));
        Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("nowhere"));
        assertTrue(
                refusal(dangling).startsWith(dangling + ": the cache folder is not a folder (a symlink to "),
                refusal(dangling));
    }

    @Test
    void aFolderOfAnotherUserIsRefused() throws Exception {
        if (!root()) {
            System.out.println(
                    "CacheFolderTest: skipped aFolderOfAnotherUserIsRefused: chown needs root, this is uid " + idU());
            Assumptions.abort("chown needs root");
        }
        Path dir = Files.createDirectory(tmp.resolve("theirs"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        Files.setAttribute(dir, "unix:uid", 4242);
        String m = refusal(dir);
        assertTrue(m.startsWith(dir + ": the cache folder belongs to "), m);
        assertTrue(
                m.contains("(uid 4242), not to this user (")
                        && m.contains("uid 0)")
                        && m.endsWith("set SCFLUX_CACHE_DIR to a folder of yours"),
                m);
        Path link = Files.createSymbolicLink(tmp.resolve("to-theirs"), dir);
        assertTrue(
                refusal(link)
                        .startsWith(
                                link + " (a symlink to " + dir.toRealPath() + "): the cache folder " + "belongs to "),
                refusal(link));
        // a link of theirs to a folder of this user's: where the copies go is theirs to decide, refused too
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("rwx------"));
        Path planted = Files.createSymbolicLink(tmp.resolve("planted"), mine);
        Files.setAttribute(planted, "unix:uid", 4242, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        assertEquals(
                planted + ": the cache folder is a symlink that uid 4242 made, not this user (uid 0); remove "
                        + "it, or set SCFLUX_CACHE_DIR to a folder of yours",
                refusal(planted));
    }
}
