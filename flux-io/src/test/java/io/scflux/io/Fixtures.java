package io.scflux.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.scflux.core.BlockSource;
import io.scflux.core.Execution;
import io.scflux.core.PlanTarget;
import io.scflux.core.anndata.CsrMatrix;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Test fixtures copied into test resources, and the facts their generators recorded. */
final class Fixtures {

    /** Reference values computed by anndata 0.12 for synth-3k (expected/README.md and the inputs). */
    static final long SYNTH3K_NNZ = 1205649;
    static final double SYNTH3K_SUM = 2953988.0;

    private Fixtures() {
    }

    static Path path(String name) {
        try {
            var url = Fixtures.class.getResource("/fixtures/" + name);
            if (url == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return Paths.get(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** x-variants.json: what make_matrix_fixtures.py computed with numpy from the source data. */
    static JsonNode variants() {
        try {
            return new ObjectMapper().readTree(Files.readString(path("x-variants.json")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole matrix of {@code source} in memory, streamed with the given target and threads. */
    static CsrMatrix collect(BlockSource source, PlanTarget target, int threads) {
        return CsrMatrix.collect(source.blocks(source.plan(target), Execution.threads(threads)), source.nCols())
                .block();
    }

    /** Asserts that two matrices hold the same entries in the same order, bit for bit. */
    static void assertSameMatrix(CsrMatrix expected, CsrMatrix actual) {
        org.junit.jupiter.api.Assertions.assertEquals(expected.nRows(), actual.nRows(), "rows");
        org.junit.jupiter.api.Assertions.assertEquals(expected.nCols(), actual.nCols(), "columns");
        org.junit.jupiter.api.Assertions.assertEquals(expected.nnz(), actual.nnz(), "nnz");
        for (long r = 0; r <= expected.nRows(); r++) {
            if (expected.indptr(r) != actual.indptr(r)) {
                org.junit.jupiter.api.Assertions.fail("indptr differs at row " + r + ": " + expected.indptr(r)
                        + " vs " + actual.indptr(r));
            }
        }
        for (long k = 0; k < expected.nnz(); k++) {
            if (expected.index(k) != actual.index(k)
                    || Float.floatToRawIntBits(expected.value(k)) != Float.floatToRawIntBits(actual.value(k))) {
                org.junit.jupiter.api.Assertions.fail("entry " + k + " differs: (" + expected.index(k) + ", "
                        + expected.value(k) + ") vs (" + actual.index(k) + ", " + actual.value(k) + ")");
            }
        }
    }

    /** Sum of all values, in row order, in double. */
    static double sum(CsrMatrix m) {
        double s = 0;
        for (long k = 0; k < m.nnz(); k++) {
            s += m.value(k);
        }
        return s;
    }
}
