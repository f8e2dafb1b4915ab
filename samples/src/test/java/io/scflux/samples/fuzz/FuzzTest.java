/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.test.Logs;
import io.scflux.io.test.TestFixtures;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A thousand damaged copies of real anndata files, with a fixed seed: each one is read, scanned and QC'd, and must
 * end in a result or a clear {@code ScfluxFormatException} within the limit — never another exception, an
 * {@code OutOfMemoryError} or a hang. {@code scflux fuzz} runs more ({@code FuzzCommandTest}).
 */
@Tag("fuzz")
class FuzzTest {

    static final long SEED = 20261129L;
    static final int CASES = Integer.getInteger("scflux.fuzz.cases", 1000);

    static List<Path> bases() {
        return List.of(
                        "x-csr-contiguous.h5ad",
                        "x-dense-lzf.h5ad",
                        "x-empty-rows-u16.h5ad",
                        "legacy-07.h5ad",
                        "nullable-strings.h5ad",
                        "nulls-anndata012.h5ad",
                        "x-csr-anndata08.h5ad",
                        "rich.anndata08.h5ad",
                        "x-dense-f64-contiguous.h5ad",
                        "malformed/base.h5ad")
                .stream()
                .map(TestFixtures::path)
                .collect(Collectors.toList());
    }

    /**
     * Every intact file is read and QC'd, but for the dense float64 one, which holds a NaN at cell 0, gene 5 (see
     * make_matrix_fixtures.py): QC refuses it, naming that value, as {@code scflux qc} does.
     */
    @Test
    void intactFilesAreRead(@TempDir Path dir) {
        Fuzzer.Report report;
        try (Fuzzer fuzzer = new Fuzzer(bases(), dir, Duration.ofSeconds(60))) {
            report = fuzzer.intact();
        }
        assertEquals(
                Map.of(FuzzOutcome.READ, bases().size() - 1, FuzzOutcome.REJECTED, 1),
                report.counts(),
                () -> report.defects().toString());
        Fuzzer.Defect qcRefused = report.defects().get(0);
        assertTrue(
                qcRefused.base().getFileName().toString().endsWith("x-dense-f64-contiguous.h5ad")
                        && qcRefused.what().contains("X holds NaN at cell '0', gene '5'"),
                qcRefused::toString);
    }

    @Test
    void damagedFilesEndInAResultOrAClearError(@TempDir Path dir) {
        Fuzzer.Report[] run = new Fuzzer.Report[1];
        // a damaged value may read as a tiny float, which QC warns of as scanpy does: the only lines it may log
        List<String> logged = Logs.during(() -> {
            try (Fuzzer fuzzer = new Fuzzer(bases(), dir, Duration.ofSeconds(60))) {
                run[0] = fuzzer.run(SEED, CASES);
            }
        });
        assertEquals(
                List.of(),
                logged.stream()
                        .filter(l -> !l.contains("`calculate_qc_metrics` expects raw count data, but non-integers"))
                        .toList(),
                "what the fuzz logged besides QC's warning");
        Fuzzer.Report report = run[0];
        System.out.println("fuzz: " + report.cases() + " cases, seed " + SEED + ": " + report.counts());
        report.defects().forEach(d -> System.out.println("fuzz defect: " + d));
        assertEquals(CASES, report.cases());
        assertTrue(
                report.defects().isEmpty(),
                report.defects().size() + " defects, first: "
                        + (report.defects().isEmpty() ? "" : report.defects().get(0)));
        assertTrue(
                report.counts().getOrDefault(FuzzOutcome.REJECTED, 0) > CASES / 10,
                "most damage is noticed: " + report.counts());
    }
}
