/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
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
public final class Fixtures {

    /** Reference values computed by anndata 0.12 for synth-3k (expected/README.md and the inputs). */
    static final long SYNTH3K_NNZ = 1205649;

    static final double SYNTH3K_SUM = 2953988.0;

    private Fixtures() {}

    public static Path path(String name) {
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

    /** Same entries bit for bit (see {@link io.scflux.core.test.Matrices#assertSame}). */
    public static void assertSameMatrix(CsrMatrix expected, CsrMatrix actual) {
        io.scflux.core.test.Matrices.assertSame(expected, actual);
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
    public static CsrMatrix collect(BlockSource source, PlanTarget target, int threads) {
        return CsrMatrix.collect(source.blocks(source.plan(target), Execution.threads(threads)), source.nCols())
                .block();
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
