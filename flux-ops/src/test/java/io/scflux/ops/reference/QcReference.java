/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Compares QC columns with scanpy's ({@code qc_obs}, {@code qc_var}: {@code calculate_qc_metrics} with
 * {@code qc_vars=["mt"]}, {@code percent_top=(50, 100, 200)}, {@code log1p=True} on synth-3k): every row, every
 * column, with scanpy's dtypes; integer sums exactly, the rest within {@link Tolerance#RELATIVE}. Public for the
 * command tests in samples.
 */
public final class QcReference {

    /** The dtypes scanpy gives each column (expected/README.md). */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("n_genes_by_counts", "int32"),
            Map.entry("log1p_n_genes_by_counts", "float64"),
            Map.entry("total_counts", "float32"),
            Map.entry("log1p_total_counts", "float32"),
            Map.entry("pct_counts_in_top_50_genes", "float64"),
            Map.entry("pct_counts_in_top_100_genes", "float64"),
            Map.entry("pct_counts_in_top_200_genes", "float64"),
            Map.entry("total_counts_mt", "float32"),
            Map.entry("log1p_total_counts_mt", "float32"),
            Map.entry("pct_counts_mt", "float32"),
            Map.entry("mt", "bool"),
            Map.entry("n_cells_by_counts", "int64"),
            Map.entry("mean_counts", "float64"),
            Map.entry("log1p_mean_counts", "float64"),
            Map.entry("pct_dropout_by_counts", "float64"));
    /** Integer sums and flags: equal exactly. */
    private static final List<String> EXACT =
            List.of("n_genes_by_counts", "total_counts", "total_counts_mt", "n_cells_by_counts", "mt");

    private QcReference() {}

    /** Asserts {@code data}'s obs and var QC columns equal scanpy's; prints the largest relative error of each. */
    public static void assertMatches(AnnData data) {
        compare(Reference.csv("qc_obs"), data.obs());
        compare(Reference.csv("qc_var"), data.var());
    }

    private static void compare(Reference.Table expected, Frame actual) {
        int[] rows = Arrays.stream(actual.index()).mapToInt(expected::row).toArray();
        assertEquals(expected.size(), rows.length, expected + ": rows");
        List<String> names = expected.columnNames();
        for (String name : names.subList(1, names.size())) {
            Column column = actual.column(name);
            assertEquals(TYPES.get(name), column.typeName(), name + " dtype");
            double[] all = column.typeName().equals("bool")
                    ? Arrays.stream(expected.strings(name))
                            .mapToDouble(b -> b.equals("True") ? 1 : 0)
                            .toArray()
                    : expected.doubles(name);
            double[] want = Arrays.stream(rows).mapToDouble(r -> all[r]).toArray();
            double err = Tolerance.assertClose(
                    want, Tolerance.doubles(column), EXACT.contains(name) ? 0 : Tolerance.RELATIVE, name);
            System.out.printf("qc %s: max relative error %.3g%n", name, err);
        }
    }
}
