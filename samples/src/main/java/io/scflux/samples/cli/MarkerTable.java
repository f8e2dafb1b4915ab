/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.RecordArray;
import io.scflux.ops.markers.RankGenesGroups;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * rank_genes_groups' results as one long CSV table, a row per group and gene in rank order: {@code group, rank
 * (from 0), names, scores, logfoldchanges, pvals, pvals_adj}, as {@code sc.get.rank_genes_groups_df} lays them out
 * group after group. Written under a temporary name and renamed when complete.
 */
final class MarkerTable {

    private static final List<String> COLUMNS = List.of("names", "scores", "logfoldchanges", "pvals", "pvals_adj");

    private MarkerTable() {}

    /** Writes the table of {@code uns["rank_genes_groups"]} to {@code target} ({@link AtomicFile}). */
    static void write(@Nullable Map<String, Object> found, Path target) {
        // the step writes its results, every column of them, before the table is asked for
        Map<String, Object> results = Objects.requireNonNull(found, "uns[\"rank_genes_groups\"]");
        try {
            AtomicFile.write(target, out -> {
                BufferedWriter w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
                write(results, w);
                w.flush();
            });
        } catch (IOException e) {
            throw new UncheckedIOException(target + ": " + e.getMessage(), e);
        }
    }

    private static void write(Map<String, Object> results, BufferedWriter w) throws IOException {
        w.write("group,rank," + String.join(",", COLUMNS) + "\n");
        RecordArray names = column(results, "names");
        for (String group : names.fields().keySet()) {
            String[] genes = names.field(group).strings();
            DenseArray[] numbers = new DenseArray[COLUMNS.size() - 1];
            for (int c = 1; c < COLUMNS.size(); c++) {
                numbers[c - 1] = column(results, COLUMNS.get(c)).field(group);
            }
            for (int i = 0; i < genes.length; i++) {
                w.write(quoted(group) + "," + i + "," + quoted(genes[i]));
                for (DenseArray a : numbers) {
                    w.write(",");
                    // float32 columns as their shortest float, float64 ones as theirs
                    w.write(a.data() instanceof float[] f ? Float.toString(f[i]) : Double.toString(a.getDouble(i)));
                }
                w.write("\n");
            }
        }
    }

    /** A CSV field: as it is, or in double quotes (doubled inside) when it holds a comma, a quote or a line break. */
    private static String quoted(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** The column {@code name} of the step's results. */
    private static RecordArray column(Map<String, Object> results, String name) {
        return (RecordArray) Objects.requireNonNull(results.get(name), "uns[\"rank_genes_groups\"][\"" + name + "\"]");
    }

    /** The results a step left in {@code uns}. */
    @SuppressWarnings("unchecked")
    static @Nullable Map<String, Object> results(Map<String, Object> uns) {
        return (Map<String, Object>) uns.get(RankGenesGroups.KEY);
    }
}
