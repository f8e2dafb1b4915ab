/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} at random moments of {@code scflux preprocess} in a child JVM: the target is afterwards absent, or
 * the earlier complete file, or the new complete file — never a partial one; the input is never changed; and the next
 * run in the folder removes the temporary files the killed runs left.
 */
@Tag("crash")
class CrashSafetyTest {

    static final int TRIALS = 20;

    @TempDir
    Path dir;

    @Test
    void killedWritesLeaveCompleteTargetsOrNone() throws Exception {
        Path input = dir.resolve("in.h5ad");
        assertEquals(
                0,
                Cli.run("synth", "--cells", "20000", "--genes", "2000", "--nnz-per-cell", "300", "-o", input.toString())
                        .exitCode());
        byte[] inputDigest = digest(input);
        Path reference = dir.resolve("reference.h5ad");
        long started = System.nanoTime();
        assertEquals(0, child(input, reference).waitFor(), "an uninterrupted run succeeds");
        long fullMillis = (System.nanoTime() - started) / 1_000_000;
        Fingerprint expected = Fingerprint.of(reference);

        SplittableRandom random = new SplittableRandom(42);
        List<String> outcomes = new ArrayList<>();
        for (int trial = 0; trial < TRIALS; trial++) {
            Path target = dir.resolve("out-" + trial + ".h5ad");
            boolean earlier = trial % 2 == 1;
            if (earlier) {
                Files.copy(reference, target);
            }
            Process p = child(input, target);
            long delay = random.nextLong(fullMillis + 1);
            boolean exited = p.waitFor(delay, TimeUnit.MILLISECONDS);
            if (!exited) {
                p.destroyForcibly(); // SIGKILL
                p.waitFor();
            }
            String state = (!Files.exists(target) ? "absent" : "complete")
                    + (temporaryFiles().stream().anyMatch(n -> n.contains(".scflux-" + p.pid() + "-"))
                            ? ", killed mid-write"
                            : "");
            if (Files.exists(target)) {
                assertEquals(
                        expected,
                        Fingerprint.of(target),
                        "trial " + trial + ": killed after " + delay + " ms, the target is not the complete output");
            } else {
                assertTrue(!earlier, "trial " + trial + ": the earlier complete target was removed");
            }
            outcomes.add(state + (exited ? " (finished)" : " (killed at " + delay + " ms)"));
            assertArrayEquals(inputDigest, digest(input), "trial " + trial + ": the input changed");
        }
        System.out.println("crash trials: " + outcomes);

        assertEquals(0, child(input, dir.resolve("last.h5ad")).waitFor());
        assertEquals(List.of(), temporaryFiles(), "the next run removes what killed runs left");
    }

    private Process child(Path input, Path target) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Scflux.class.getName(),
                        "preprocess",
                        input.toString(),
                        "-o",
                        target.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private List<String> temporaryFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".tmp"))
                    .collect(Collectors.toList());
        }
    }

    private static byte[] digest(Path file) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    }

    /** What a complete output holds: its shape, obs and var columns, and the sum and entry count of X. */
    record Fingerprint(long nObs, long nVars, List<String> obs, List<String> var, Totals x) {
        static Fingerprint of(Path file) {
            AnnData d = H5ad.read(file);
            BlockSource x = d.x();
            return new Fingerprint(
                    d.nObs(),
                    d.nVars(),
                    List.copyOf(d.obs().columns().keySet()),
                    List.copyOf(d.var().columns().keySet()),
                    Totals.of(x, x.plan(PlanTarget.DEFAULT), Execution.sequential()));
        }
    }
}
