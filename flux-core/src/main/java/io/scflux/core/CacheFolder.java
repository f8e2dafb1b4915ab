/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;

/**
 * The folder of what scflux writes and reads back besides its outputs (CSC inputs' row-major copies, spills): where it
 * is, created owner-only, and refused, as ssh refuses a {@code ~/.ssh} that others could write, when another user
 * owns it or group or others may write it (itself, or the folder a symlink names; a symlink another user made is
 * refused too). Others who can write the folder
 * can replace a copy scflux then reads as the input; a folder shared by every user (one fixed {@code /tmp} path made
 * 0755 by whoever ran first) fails every other user's CSC input with "permission denied".
 */
final class CacheFolder {

    /** The mode a cache folder is created with: {@code rwx------}. */
    static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private CacheFolder() {}

    /** This process's uid, or its user name (letters, digits, {@code ._-} kept) where the uid is out of reach. */
    static String user() {
        long uid = uid();
        if (uid >= 0) {
            return Long.toString(uid);
        }
        String name = System.getProperty("user.name", "");
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return safe.isEmpty() ? "user" : safe;
    }

    /**
     * This process's uid: the owner of {@code /proc/self} on Linux (the uid its files are created with), else what
     * {@code jdk.security.auth} says (a runtime may lack the module), else -1 (a system without uids).
     */
    static long uid() {
        try {
            return ((Number) Files.getAttribute(Paths.get("/proc/self"), "unix:uid")).longValue();
        } catch (IOException | RuntimeException e) {
            // not Linux, or no /proc
        }
        try {
            return new com.sun.security.auth.module.UnixSystem().getUid();
        } catch (LinkageError | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Creates {@code dir} owner-only when it does not exist (its parents as any new folder), then {@link #check}s it.
     *
     * @param dir the cache folder
     * @return {@code dir}
     * @throws IOException when it cannot be created, or {@link #check} refuses it
     */
    static Path open(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            try {
                Path parent = dir.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                if (parent != null && posix(parent)) {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                } else {
                    Files.createDirectory(dir);
                }
            } catch (FileAlreadyExistsException e) {
                if (!dir.toString().equals(e.getFile())
                        && !dir.toAbsolutePath().toString().equals(e.getFile())) {
                    throw cannotCreate(dir, e.getFile() + " is not a folder", e);
                }
                // another process made it meanwhile (or it is a file, or a dangling link): the check says which
            } catch (AccessDeniedException e) {
                throw cannotCreate(
                        dir, "permission denied in " + Paths.get(e.getFile()).getParent(), e);
            } catch (IOException e) {
                throw cannotCreate(dir, Objects.requireNonNullElse(e.getMessage(), e.toString()), e);
            }
        }
        check(dir);
        return dir;
    }

    private static IOException cannotCreate(Path dir, String why, IOException cause) {
        return new IOException(
                dir + ": cannot create the cache folder (" + why + "); set SCFLUX_CACHE_DIR to a folder "
                        + "you can write",
                cause);
    }

    /**
     * Refuses {@code dir} (followed if a symlink) unless it is a folder this process's user owns and neither group nor
     * others may write; nothing is checked on a file system without POSIX permissions.
     *
     * @param dir the cache folder, which exists
     * @throws IOException one line naming the folder, what is wrong with it and how to fix it
     */
    static void check(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + ": the cache folder is not a folder"
                    + (Files.isSymbolicLink(dir) ? " (a symlink to " + Files.readSymbolicLink(dir) + ")" : "")
                    + "; remove it or set "
                    + "SCFLUX_CACHE_DIR to another folder");
        }
        if (!posix(dir)) {
            return;
        }
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class);
        String named = Files.isSymbolicLink(dir) ? dir + " (a symlink to " + dir.toRealPath() + ")" : dir.toString();
        long uid = uid();
        Object owner =
                uid >= 0 ? Files.getAttribute(dir, "unix:uid") : a.owner().getName();
        boolean mine =
                owner instanceof Integer o ? o == uid : a.owner().getName().equals(System.getProperty("user.name"));
        if (mine && Files.isSymbolicLink(dir) && uid >= 0) {
            // a link another user made (in /tmp, say) decides where this user's copies go: refused as well
            Object linkOwner = Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (!(linkOwner instanceof Integer o && o == uid)) {
                throw new IOException(dir + ": the cache folder is a symlink that uid " + linkOwner + " made, not this "
                        + "user (uid " + uid + "); remove it, or set SCFLUX_CACHE_DIR to a folder of yours");
            }
        }
        if (!mine) {
            throw new IOException(named + ": the cache folder belongs to "
                    + a.owner().getName() + " (uid " + owner
                    + "), not to this user (" + System.getProperty("user.name") + ", uid " + uid + "): scflux reads"
                    + " back what it keeps there as your data; set SCFLUX_CACHE_DIR to a folder of yours");
        }
        Set<PosixFilePermission> p = a.permissions();
        if (p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException(named + ": the cache folder may be written by "
                    + (p.contains(PosixFilePermission.OTHERS_WRITE) ? "others" : "its group") + " (mode "
                    + PosixFilePermissions.toString(p) + "): scflux reads back what it keeps there as your data; "
                    + "chmod go-w it, or set SCFLUX_CACHE_DIR to a folder only you can write");
        }
    }

    private static boolean posix(Path dir) throws IOException {
        return dir != null && Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class);
    }
}
