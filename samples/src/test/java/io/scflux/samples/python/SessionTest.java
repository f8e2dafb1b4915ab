/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.reference.NormalizedReference;
import io.scflux.ops.reference.QcReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python package's engine as Python drives it: QC rides along the next pass (its columns, put by
 * {@link Session#complete}, are scanpy's, and no pass of their own read the file), normalize_total right after QC
 * fuses with it (X is scanpy's, and neither makes a pass), a file rewritten in place with what was staged on its own
 * counts holds scanpy's numbers and nothing else is left beside it, a cancelled pass ends at once with the cancellation, an
 * unknown step is refused before anything runs.
 */
class SessionTest {

    private static final String COUNTS =
            TestFixtures.path("synth-3k.int64.h5ad").toString();
    private static final long WAIT_MS = 60_000;

    private static Object finished(Pass pass) throws Throwable {
        assertTrue(pass.waitFor(WAIT_MS), "the pass ended");
        return pass.result();
    }

    /** Blocks the session read from the file so far: its cache of no room misses each one. */
    private static long blocksRead(Session session) throws Exception {
        return new ObjectMapper().readTree(session.cacheStats()).get("misses").asLong();
    }

    /** The counts after the reference's QC call ({@code qc_vars=["mt"]}, {@code percent_top=(50, 100, 200)}). */
    private static AnnData riddenByQc(Session session) throws Throwable {
        AnnData counts = session.read(COUNTS, null, true);
        counts.var().put("mt", QcMetrics.genesStartingWith(counts.var(), "MT-"));
        return (AnnData) finished(session.run(
                "calculate_qc_metrics",
                counts,
                Map.of("qc_vars", List.of("mt"), "percent_top", List.of(50, 100, 200))));
    }

    @Test
    void qcRidesAlongTheNextPassWithScanpysNumbers() throws Throwable {
        Session session = Session.start(2, 0, 0);
        AnnData qc = riddenByQc(session);
        assertNotNull(qc.pending(), "QC's columns wait for a pass over X");
        assertFalse(qc.obs().has("total_counts"));
        assertEquals(0, blocksRead(session), "QC read nothing yet");
        AnnData hvg = (AnnData)
                finished(session.run("highly_variable_genes", qc, Map.of("flavor", "seurat_v3", "n_top_genes", 100)));
        long read = blocksRead(session);
        assertTrue(read > 0, "highly_variable_genes' pass read X");
        AnnData completed = (AnnData) finished(session.complete(hvg));
        assertEquals(read, blocksRead(session), "its pass made QC's columns: no pass of their own");
        QcReference.assertMatches(completed);
    }

    @Test
    void normalizeTotalAfterQcFusesWithItAsPreprocessDoes() throws Throwable {
        Session session = Session.start(2, 0, 0);
        AnnData qc = riddenByQc(session);
        // the next step gets the container as Python builds it: its own frames, QC's X and pending columns
        AnnData asPython = new AnnData(qc.x(), qc.obs().indexOnly(), qc.var().indexOnly()).setPending(qc.pending());
        AnnData normalized = (AnnData) finished(session.run("normalize_total", asPython, Map.of("target_sum", 1e4)));
        assertEquals(0, blocksRead(session), "neither QC nor normalize_total made a pass");
        AnnData logged = (AnnData) finished(session.run("log1p", normalized, Map.of()));
        NormalizedReference.assertMatches("normalized_log1p", logged.x());
        long read = blocksRead(session);
        assertTrue(read > 0, "the comparison read X");
        AnnData completed = (AnnData) finished(session.complete(logged));
        assertEquals(read, blocksRead(session), "that read made both steps' columns");
        completed.var().put("mt", QcMetrics.genesStartingWith(completed.var(), "MT-"));
        QcReference.assertMatches(completed);
    }

    @Test
    void aFileIsRewrittenInPlaceWithWhatWasStagedOnItsOwnCounts(@TempDir Path dir) throws Throwable {
        Path file = Files.copy(Path.of(COUNTS), dir.resolve("work.h5ad"));
        Session session = Session.start(2, 0, 0);
        AnnData counts = session.read(file.toString(), null, true);
        counts.var().put("mt", QcMetrics.genesStartingWith(counts.var(), "MT-"));
        AnnData qc = (AnnData) finished(session.run(
                "calculate_qc_metrics",
                counts,
                Map.of("qc_vars", List.of("mt"), "percent_top", List.of(50, 100, 200))));
        AnnData normalized = (AnnData) finished(session.run("normalize_total", qc, Map.of("target_sum", 1e4)));
        AnnData logged = (AnnData) finished(session.run("log1p", normalized, Map.of()));
        Pass refused = session.write(logged, file.toString(), false);
        assertTrue(refused.waitFor(WAIT_MS), "the refusal is at once");
        assertThrows(IllegalArgumentException.class, refused::result, "write() does not replace its input");
        finished(session.writeInPlace(logged, file.toString(), false));
        AnnData rewritten = H5ad.read(file);
        NormalizedReference.assertMatches("normalized_log1p", rewritten.x());
        QcReference.assertMatches(rewritten);
        try (var files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList(), "nothing but the rewritten file");
        }
    }

    @Test
    void aCancelledPassEndsWithTheCancellation() throws Exception {
        Session session = Session.start(1, 0, 0);
        AnnData counts = session.read(COUNTS, null, true);
        Pass pass = session.run("highly_variable_genes", counts, Map.of("flavor", "seurat_v3", "n_top_genes", 100));
        pass.cancel();
        assertTrue(pass.waitFor(WAIT_MS), "a cancelled pass is over");
        assertThrows(CancellationException.class, pass::result);
        assertFalse(counts.var().has("highly_variable"), "the container given is as it was");
    }

    @Test
    void anUnknownStepIsRefusedBeforeAnythingRuns() throws Exception {
        Session session = Session.start(1, 0, 0);
        AnnData counts = session.read(COUNTS, null, true);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> session.run("tsne", counts, Map.of()));
        assertTrue(e.getMessage().contains("tsne"), e.getMessage());
        assertEquals("invalid", Session.kind(e), "the command line's kind, for Python's ValueError");
    }
}
