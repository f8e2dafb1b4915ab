/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.RecordArray;
import io.scflux.ops.markers.RankGenesGroupsOptions.Method;
import io.scflux.ops.reference.Reference;
import io.scflux.ops.reference.ReferenceInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Parity with scanpy 1.11.5's {@code sc.tl.rank_genes_groups(adata_log1p, "cell_type", method=M)} on synth-3k
 * (expected/README.md: {@code rgg_*.csv}, every gene of every group in scanpy's order): the genes in scanpy's order
 * (genes of equal score may swap), scores and log fold changes within 1e-5 relative, adjusted p-values (and the
 * p-values) within 1e-4.
 *
 * <p>The input is scanpy's to the bit ({@link ReferenceInput#log1pExact}): with Java's log1p, which rounds 4% of the
 * values one ulp away from numpy's float32 one, ties among ranks break otherwise and scores near 0 (a difference of
 * nearly equal means) move by more than 1e-5 of themselves. On scanpy's input the scores and log fold changes come out
 * equal to the float32 bit and the p-values within 1e-9.
 */
class RankGenesGroupsReferenceTest {

    @ParameterizedTest
    @EnumSource(Method.class)
    void matchesScanpy(Method method) {
        AnnData out = RankGenesGroups.rankGenesGroups(
                        ReferenceInput.log1pExact(),
                        RankGenesGroupsOptions.of("cell_type").withMethod(method),
                        Streaming.DEFAULT.withThreads(2))
                .block();
        @SuppressWarnings("unchecked")
        Map<String, Object> uns = (Map<String, Object>) out.uns().get("rank_genes_groups");
        Reference.Table expected = Reference.csv("rgg_" + method.scanpyName());
        RecordArray names = (RecordArray) uns.get("names");
        List<String> groups = List.of("T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08");
        assertEquals(groups, List.copyOf(names.fields().keySet()), "one field per group, in category order");
        for (String group : groups) {
            List<Integer> rows = new ArrayList<>();
            for (int r = 0; r < expected.size(); r++) {
                if (expected.string(r, "group").equals(group)) {
                    rows.add(r);
                }
            }
            assertGroup(group, expected, rows, uns);
        }
    }

    /** One group's columns against the reference's rows of it (in rank order). */
    private static void assertGroup(
            String group, Reference.Table expected, List<Integer> rows, Map<String, Object> uns) {
        String[] names = field(uns, "names", group).strings();
        assertEquals(rows.size(), names.length, group + ": every gene");
        Map<String, Integer> rowOf = new HashMap<>();
        for (int r : rows) {
            rowOf.put(expected.string(r, "names"), r);
        }
        double[] scores = doubles(field(uns, "scores", group));
        double[] lfc = doubles(field(uns, "logfoldchanges", group));
        double[] pvals = doubles(field(uns, "pvals", group));
        double[] adjusted = doubles(field(uns, "pvals_adj", group));
        for (int i = 0; i < names.length; i++) {
            Integer r = rowOf.get(names[i]);
            if (r == null) {
                fail(group + ": gene " + names[i] + " is not in the reference");
            }
            String what = group + " " + names[i] + " (rank " + i + ")";
            double expectedScore = number(expected, r, "scores");
            assertClose(expectedScore, scores[i], 1e-5, what + " score");
            // scanpy's order, but for genes whose scores are equal
            assertClose(number(expected, rows.get(i), "scores"), expectedScore, 1e-5, what + " ranked as scanpy");
            assertClose(number(expected, r, "logfoldchanges"), lfc[i], 1e-5, what + " logfoldchange");
            assertClose(number(expected, r, "pvals"), pvals[i], 1e-4, what + " pval");
            assertClose(number(expected, r, "pvals_adj"), adjusted[i], 1e-4, what + " pval_adj");
        }
    }

    private static DenseArray field(Map<String, Object> uns, String key, String group) {
        return ((RecordArray) uns.get(key)).field(group);
    }

    private static double number(Reference.Table t, int row, String column) {
        return Double.parseDouble(t.string(row, column));
    }

    private static double[] doubles(DenseArray a) {
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.getDouble(i);
        }
        return out;
    }

    private static void assertClose(double expected, double actual, double relative, String what) {
        if (expected == actual) {
            return;
        }
        double err = Math.abs(actual - expected) / Math.abs(expected);
        assertTrue(
                err <= relative, what + ": expected " + expected + ", got " + actual + " (relative error " + err + ")");
    }
}
