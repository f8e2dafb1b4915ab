/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import java.util.List;
import java.util.Objects;

/** Comparisons of computed values with reference values: exact, or within a relative tolerance (NaN equals NaN). */
public final class Tolerance {

    /** The tolerance for normalized and log1p values and the QC columns that are not integer sums. */
    public static final double RELATIVE = 1e-6;

    private Tolerance() {}

    /** The values of a plain numeric column as float64. */
    public static double[] doubles(Column column) {
        DenseArray a = ((ArrayColumn) column).values();
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.getDouble(i);
        }
        return out;
    }

    /**
     * Asserts every {@code actual[i]} is within {@code relative} of {@code expected[i]} (exactly equal when
     * {@code relative} is 0 or the expected value is 0; NaN where NaN is expected); returns the largest relative error.
     */
    public static double assertClose(double[] expected, double[] actual, double relative, String what) {
        assertEquals(expected.length, actual.length, what + ": length");
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            double e = expected[i];
            double a = actual[i];
            if (Double.isNaN(e) || Double.isNaN(a)) {
                if (Double.isNaN(e) != Double.isNaN(a)) {
                    fail(what + "[" + i + "]: expected " + e + ", got " + a);
                }
                continue;
            }
            double err = e == a ? 0 : Math.abs(a - e) / Math.abs(e);
            if (!(err <= relative)) {
                fail(what + "[" + i + "]: expected " + e + ", got " + a + " (relative error " + err + ")");
            }
            worst = Math.max(worst, err);
        }
        return worst;
    }

    /** The same columns in the same order, every value equal (floats bit for bit, as boxed equals compares them). */
    public static void assertSameColumns(Frame expected, Frame actual) {
        assertEquals(
                List.copyOf(expected.columns().keySet()),
                List.copyOf(actual.columns().keySet()));
        for (String name : expected.columns().keySet()) {
            Column e = expected.column(name);
            Column a = actual.column(name);
            assertEquals(e.typeName(), a.typeName(), name);
            for (int i = 0; i < e.size(); i++) {
                if (!Objects.equals(e.get(i), a.get(i))) {
                    fail(name + "[" + i + "]: " + e.get(i) + " vs " + a.get(i));
                }
            }
        }
    }
}
