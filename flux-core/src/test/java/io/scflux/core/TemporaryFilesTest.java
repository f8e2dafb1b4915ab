/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.test.Logs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a {@code kill -9} leaves in the cache folder (an unfinished copy, a spill) is named with its owner's pid and
 * removed by the next run that opens the folder once that process is dead; a live process's files stay.
 */
class TemporaryFilesTest {

    @TempDir
    Path cache;

    /** The pid of a process that has exited. */
    private static long deadPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        long pid = p.pid();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        return pid;
    }

    private List<String> names() throws IOException {
        try (var s = Files.list(cache)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    /** Creates a temporary in the cache folder {@code args[0]}, prints it, and waits to be killed. */
    static final class Probe {
        public static void main(String[] args) throws Exception {
            Path f = TemporaryFiles.newFile(Path.of(args[0]), "wilcoxon");
            Files.writeString(f, "half a spill");
            System.out.println(f);
            System.out.flush();
            Thread.sleep(60_000);
        }
    }

    /** A JVM killed with SIGKILL (no shutdown hook runs) while it holds a spill: the next opening removes it. */
    @Test
    void aSpillOfAJvmKilledWithSigkillIsRemovedByTheNextOpening() throws Exception {
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        Probe.class.getName(),
                        cache.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            String line = new java.io.BufferedReader(
                            new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))
                    .readLine();
            assertTrue(line != null && Files.exists(Path.of(line)), "the probe wrote its spill: " + line);
            assertEquals(
                    p.pid(),
                    TemporaryName.owner(Path.of(line).getFileName().toString()).orElse(-1));
            TemporaryName.removeStale(cache);
            assertTrue(Files.exists(Path.of(line)), "kept while its JVM runs");
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, p.exitValue(), "killed by SIGKILL");
            assertTrue(Files.exists(Path.of(line)), "a SIGKILL leaves it");
            Logs.during(() -> TemporaryFiles.openScratchDir(cache));
            assertEquals(List.of(), names(), "the next opening of the folder removed it");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void temporariesAreNamedWithTheirOwnersPid() throws IOException {
        Path f = TemporaryFiles.newFile(cache, "wilcoxon");
        try {
            String name = f.getFileName().toString();
            String pid = Long.toString(ProcessHandle.current().pid());
            assertTrue(name.matches("\\.wilcoxon\\.scflux-" + pid + "-[0-9a-f]+\\.tmp"), name);
            assertEquals(
                    ProcessHandle.current().pid(), TemporaryName.owner(name).orElse(-1));
            assertEquals(
                    "rw-------",
                    java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
            assertTrue(TemporaryFiles.writing().contains(f));
        } finally {
            Files.delete(f);
            TemporaryFiles.remove(f);
        }
        assertEquals(-1, TemporaryName.owner(".tmp-wilcoxon-123.part").orElse(-1));
        assertEquals(-1, TemporaryName.owner("x.scflux-12-ab.tmp").orElse(-1), "not hidden: not ours");
    }

    @Test
    void theLeftoversOfDeadProcessesAreRemovedWhenTheFolderIsOpenedAndLiveOnesKept() throws Exception {
        long dead = deadPid();
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            String deadSpill = ".wilcoxon.scflux-" + dead + "-1f2e3d.tmp";
            String deadCopy = ".transposed-0a1b-2c3d.csr.scflux-" + dead + "-ab.tmp";
            String liveSpill = ".wilcoxon.scflux-" + sleeper.pid() + "-77.tmp";
            String mine = ".spill.scflux-" + ProcessHandle.current().pid() + "-5.tmp";
            List<String> others = List.of(".tmp-wilcoxon-123.part", "transposed-0a1b-2c3d.csr", "notes.txt");
            for (String n : List.of(deadSpill, deadCopy, liveSpill, mine)) {
                Files.writeString(cache.resolve(n), "half a file");
            }
            for (String n : others) {
                Files.writeString(cache.resolve(n), "kept");
            }
            List<String> log = Logs.during(() -> assertEquals(cache, TemporaryFiles.openScratchDir(cache)));
            assertEquals(2, log.size(), log.toString());
            assertTrue(
                    log.stream().allMatch(l -> l.contains("the unfinished file of a run that was killed")),
                    log.toString());
            List<String> expected = new java.util.ArrayList<>(others);
            expected.add(liveSpill);
            expected.add(mine);
            expected.sort(null);
            assertEquals(expected, names(), "the dead process's two files removed, the rest kept");

            sleeper.destroyForcibly();
            assertTrue(sleeper.waitFor(10, TimeUnit.SECONDS));
            List<Path> removed = new java.util.ArrayList<>();
            Logs.during(() -> removed.addAll(TemporaryName.removeStale(cache)));
            assertEquals(List.of(cache.resolve(liveSpill)), removed, "once its owner is dead, its file goes too");
            assertTrue(names().contains(mine), "this process's file stays while it runs");
        } finally {
            sleeper.destroyForcibly();
        }
    }
}
