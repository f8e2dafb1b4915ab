/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.test.Logs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one rule of temporary names: {@code .<target>.scflux-<pid>-<hex>.tmp}, at most 255 bytes whatever the target's
 * name, the owner read back from the name, and the leftovers of dead owners (a JVM or a Python call) removed.
 */
class TemporaryNameTest {

    @TempDir
    Path dir;

    @Test
    void aShortNameIsMarkedAsIs() {
        assertEquals(".out.h5ad.scflux-42-ff.tmp", TemporaryName.of("out.h5ad", 42, 255));
        assertEquals(".out.h5ad.scflux-42-ffffffffffffffff.tmp", TemporaryName.of("out.h5ad", 42, -1));
    }

    @Test
    void aLongNameIsShortenedToFit255Bytes() {
        String target = "a".repeat(246) + ".h5ad"; // 251 bytes: a valid name
        String name = TemporaryName.of(target, 4_194_304, -1);
        String mark = ".scflux-4194304-ffffffffffffffff.tmp"; // 36 bytes
        assertEquals(255, name.getBytes(StandardCharsets.UTF_8).length);
        assertEquals("." + "a".repeat(255 - 1 - 36) + mark, name);
        assertEquals(OptionalLong.of(4_194_304), TemporaryName.owner(name));
    }

    @Test
    void aLongNameIsCutBetweenCharactersNotInsideOne() {
        String target = "\u00e9".repeat(125); // 250 bytes, two per character
        String name = TemporaryName.of(target, 7, 0xabc);
        String mark = ".scflux-7-abc.tmp"; // 17 bytes: 255 - 1 - 17 = 237 bytes of room, 118 whole characters
        assertEquals("." + "\u00e9".repeat(118) + mark, name);
        assertTrue(name.getBytes(StandardCharsets.UTF_8).length <= 255);
    }

    @Test
    void aLongNameOfManyWritesStaysUnique() {
        Path target = dir.resolve("b".repeat(250));
        Path one = TemporaryName.beside(target);
        Path two = TemporaryName.beside(target);
        assertNotEquals(one, two);
        assertEquals(dir.toAbsolutePath(), one.getParent());
        assertTrue(one.getFileName().toString().startsWith(".bbbb"));
        assertEquals(
                OptionalLong.of(ProcessHandle.current().pid()),
                TemporaryName.owner(one.getFileName().toString()));
    }

    @Test
    void theOwnerIsReadFromTheNameAndOnlyFromANameByTheRule() {
        assertEquals(OptionalLong.of(123), TemporaryName.owner(".x.h5ad.scflux-123-9f.tmp"));
        // a Python call's temporary output (pid 123) being written by a JVM (pid 456): the JVM's file
        assertEquals(OptionalLong.of(456), TemporaryName.owner("..x.h5ad.scflux-123-9f.tmp.scflux-456-a1.tmp"));
        assertEquals(OptionalLong.empty(), TemporaryName.owner(".x.h5ad.scflux-XXXXXXXX.h5ad"));
        assertEquals(OptionalLong.empty(), TemporaryName.owner("x.h5ad.scflux-123-9f.tmp"));
        assertEquals(OptionalLong.empty(), TemporaryName.owner(".x.scflux-123-9F.tmp"));
        assertEquals(OptionalLong.empty(), TemporaryName.owner(".notes.tmp"));
    }

    @Test
    void removeStaleRemovesTheFilesOfDeadOwnersOnly() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long dead = gone.pid();
        long alive = ProcessHandle.current().pid();
        Path stale = Files.writeString(dir.resolve(TemporaryName.of("in.h5ad", dead, 0x1f2e)), "a killed call's");
        Path live = Files.writeString(dir.resolve(TemporaryName.of("in.h5ad", alive, 0x3c4d)), "being written");
        Path unrelated = Files.writeString(dir.resolve(".in.h5ad.scflux-" + dead + ".tmp"), "not by the rule");
        List<String> logged = Logs.during(() -> TemporaryName.removeStale(dir));
        assertEquals(
                List.of("[main] INFO " + TemporaryName.class.getName() + " - removed " + stale
                        + ", the unfinished file of a run that was killed"),
                logged);
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(unrelated));
        TemporaryName.removeStale(dir.resolve("missing")); // a folder that cannot be listed: nothing happens
    }
}
