/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.io.test.TestFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every option that names a file a command writes ({@code -o} of the steps, concat and synth, {@code plot -o},
 * {@code rank-genes-groups --csv}) refuses a FIFO or a device node as a usage error (exit 2) and leaves the node as
 * it was: the rename that ends a write would replace it with a regular file (as root, {@code -o /dev/null} replaced
 * {@code /dev/null}). The device is a character device made here with mknod as root (the same as /dev/null, so the
 * machine's own is never at stake), else /dev/null itself, which a user other than root cannot replace anyway.
 */
class OutputNodeTest {

    /** The type bits of st_mode: a FIFO, a character device. */
    private static final int TYPE = 0170000;

    private static final int FIFO = 0010000;
    private static final int CHARACTER_DEVICE = 0020000;

    private static final String IN = TestFixtures.path("synth-3k-b.h5ad").toString();

    @TempDir
    static Path tmp;

    static Stream<Arguments> outputs() {
        List<Arguments> all = new ArrayList<>();
        for (String node : List.of("fifo", "device")) {
            all.add(Arguments.of(node, "qc -o", List.of("qc", IN, "-o", "NODE")));
            all.add(Arguments.of(node, "normalize -o", List.of("normalize", IN, "-o", "NODE")));
            all.add(Arguments.of(node, "concat -o", List.of("concat", IN, IN, "--keys", "a,b", "-o", "NODE")));
            all.add(Arguments.of(node, "synth -o", List.of("synth", "--cells", "20", "--genes", "100", "-o", "NODE")));
            all.add(Arguments.of(node, "plot -o", List.of("plot", "qc", IN, "-o", "NODE")));
            all.add(Arguments.of(
                    node,
                    "rank-genes-groups --csv",
                    List.of(
                            "rank-genes-groups",
                            IN,
                            "--groupby",
                            "cell_type",
                            "--csv",
                            "NODE",
                            "-o",
                            tmp.resolve("ranked-" + node + ".h5ad").toString())));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{1} onto a {0}")
    @MethodSource("outputs")
    void anOutputOntoAFifoOrADeviceIsAUsageErrorThatLeavesTheNode(String kind, String option, List<String> args)
            throws Exception {
        Path node = node(kind, option.replaceAll("[^a-z]", ""));
        List<String> command =
                args.stream().map(a -> a.equals("NODE") ? node.toString() : a).toList();
        // a write that opened a FIFO would wait for a reader for ever
        Cli c = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> Cli.run(command.toArray(String[]::new)));
        assertEquals(2, c.exitCode(), c.err());
        assertTrue(c.err().contains(node.toString()) && c.err().lines().count() <= 2, c.err());
        int mode = (Integer) Files.getAttribute(node, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        assertEquals(kind.equals("fifo") ? FIFO : CHARACTER_DEVICE, mode & TYPE, node + " is still a " + kind);
    }

    /** A FIFO made here, or a character device: one made here as root, else /dev/null. */
    private static Path node(String kind, String name) throws IOException, InterruptedException {
        if (kind.equals("fifo")) {
            Path fifo = tmp.resolve(name + ".fifo");
            if (!Files.exists(fifo, LinkOption.NOFOLLOW_LINKS)) {
                assumeTrue(run("mkfifo", fifo.toString()), "mkfifo is not available here");
            }
            return fifo;
        }
        Path device = tmp.resolve(name + ".null");
        if (Files.exists(device, LinkOption.NOFOLLOW_LINKS) || run("mknod", device.toString(), "c", "1", "3")) {
            return device;
        }
        return Path.of("/dev/null"); // not root: a node this user cannot replace
    }

    private static boolean run(String... command) throws IOException, InterruptedException {
        return new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start()
                        .waitFor()
                == 0;
    }
}
