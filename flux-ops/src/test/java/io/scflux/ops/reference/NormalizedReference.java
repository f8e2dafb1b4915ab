/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.BlockSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.CsrMatrix;
import java.time.Duration;

/**
 * Compares a normalized X with a cut of scanpy's ({@code normalized_median} or {@code normalized_log1p}): every stored
 * entry of the first 100 cells, and the float64 sum of every row and column of the whole matrix. Public for the
 * command tests in samples.
 */
public final class NormalizedReference {

    private NormalizedReference() {}

    /** Asserts the entries and sums within {@link Tolerance#RELATIVE}; prints the largest errors measured. */
    public static void assertMatches(String name, BlockSource x) {
        CsrMatrix m = CsrMatrix.collect(Streaming.DEFAULT.blocks(x), x.nCols()).block(Duration.ofSeconds(120));
        Reference.Table rows = Reference.csv(name + "_rows");
        double[] want = rows.doubles("value");
        double[] got = new double[want.length];
        long[] genes = java.util.Arrays.stream(rows.strings("gene_index"))
                .mapToLong(Long::parseLong)
                .toArray();
        assertEquals(m.indptr(100), want.length, name + ": entries of the first 100 cells");
        int bitEqual = 0;
        for (int k = 0; k < want.length; k++) {
            assertEquals(genes[k], m.index(k), name + ": column of entry " + k);
            got[k] = m.value(k);
            bitEqual += got[k] == want[k] ? 1 : 0;
        }
        double entries = Tolerance.assertClose(want, got, Tolerance.RELATIVE, name + " entries");

        Reference.Table sums = Reference.csv(name + "_sums");
        String[] axis = sums.strings("axis");
        double[] expected = sums.doubles("sum");
        double[] rowSums = new double[(int) m.nRows()];
        double[] colSums = new double[m.nCols()];
        for (int r = 0; r < rowSums.length; r++) {
            for (long k = m.indptr(r); k < m.indptr(r + 1); k++) {
                rowSums[r] += m.value(k);
                colSums[m.index(k)] += m.value(k);
            }
        }
        double[] actual = new double[expected.length];
        for (int i = 0; i < actual.length; i++) {
            actual[i] = axis[i].equals("row") ? rowSums[i] : colSums[i - rowSums.length];
        }
        assertEquals(rowSums.length + colSums.length, expected.length);
        double sumErr = Tolerance.assertClose(expected, actual, Tolerance.RELATIVE, name + " sums");
        System.out.printf(
                "%s: %d of %d entries bit-equal, max relative error %.3g; row/column sums %.3g%n",
                name, bitEqual, want.length, entries, sumErr);
    }
}
