/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.Settings;
import io.scflux.io.transposed.TransposedStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Not a test: a main that times full reads of a CSC input's row-major copy (built once in a fresh cache folder), to
 * measure what the copy's checksums cost on a pass. Run by hand:
 * {@code java -cp <flux-io test classpath> io.scflux.io.TransposedReadBench [passes]}.
 */
final class TransposedReadBench {

    private TransposedReadBench() {}

    public static void main(String[] args) throws Exception {
        int passes = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Path work = Files.createTempDirectory("scflux-bench");
        Settings settings = Settings.DEFAULT.withCacheDir(work.resolve("cache"));
        Path csc = Files.copy(Fixtures.path("synth-3k.csc-gzip.h5ad"), work.resolve("a.h5ad"));
        FileMatrix m = H5ad.openMatrix(csc, "/X", settings);
        BlockPlan plan = m.plan();
        long[] nanos = new long[passes];
        double sum = 0;
        for (int p = 0; p < passes; p++) {
            long t0 = System.nanoTime();
            try (RowReader r = m.open()) {
                for (int b = 0; b < plan.size(); b++) {
                    RowBlock block = r.read(b, plan.rowStart(b), plan.rowEnd(b));
                    sum += block.values().length;
                }
            }
            nanos[p] = System.nanoTime() - t0;
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        long bytes = 0;
        for (Path s : TransposedStore.stores(settings.cacheDir())) {
            bytes += Files.size(s);
        }
        System.out.printf(
                Locale.ROOT,
                "copy %d bytes, %d blocks, %d passes: median %.2f ms, best %.2f ms (%.0f MB/s)" + " [%s]%n",
                bytes,
                plan.size(),
                passes,
                sorted[passes / 2] / 1e6,
                sorted[0] / 1e6,
                bytes / (sorted[passes / 2] / 1e9) / 1e6,
                sum > 0 ? "ok" : "empty");
        try (var all = Files.walk(work)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
