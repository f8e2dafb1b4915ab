/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.scflux.core.DType;
import io.scflux.core.InvalidValueException;
import io.scflux.core.Streaming;
import io.scflux.core.TemporaryFiles;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.core.anndata.RecordArray;
import io.scflux.core.anndata.Selection;
import io.scflux.core.test.BlockSize;
import io.scflux.core.test.Threads;
import io.scflux.ops.markers.RankGenesGroupsOptions.CorrMethod;
import io.scflux.ops.markers.RankGenesGroupsOptions.Method;
import io.scflux.ops.moments.GeneSums;
import io.scflux.ops.reference.ReferenceInput;
import io.scflux.ops.reference.Tolerance;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link RankGenesGroups} on small data against a direct calculation written here (dense columns, ranks by counting,
 * two-pass variances, textbook Benjamini-Hochberg), its p-values against scipy's, its output as scanpy lays it out,
 * its errors and warning; and on synth-3k, the same bits whatever the threads, the block plan and the gene ranges.
 */
@Tag("slow")
class RankGenesGroupsTest {

    /**
     * 14 cells x 5 genes: groups A (5 cells), B (4), C (3) and two cells without a group; negative values, ties among
     * the values and zeros, a gene that is zero everywhere and one that is the same everywhere.
     */
    private static final float[][] X = {
        {1.5f, 0, -0.5f, 0, 2},
        {2.5f, 1, 0, 0, 2},
        {1.5f, 0, 0.5f, 0, 2},
        {3f, 1, -0.5f, 0, 2},
        {0, 0, 0.25f, 0, 2},
        {0, 1, 1.5f, 0, 2},
        {0.5f, 2, 0, 0, 2},
        {0, 1, 1.5f, 0, 2},
        {0.5f, 3, -1f, 0, 2},
        {0, 0, 0, 0, 2},
        {1f, 0.5f, 2f, 0, 2},
        {0, 0.5f, 0, 0, 2},
        {1.5f, 0, 0.5f, 0, 2},
        {0, 1, 0, 0, 2},
    };

    private static final String[] GROUP = {"A", "A", "A", "A", "A", "B", "B", "B", "B", "C", "C", "C", null, null};
    private static final String[] GENES = {"g0", "g1", "g2", "g3", "g4"};

    private static AnnData small() {
        CsrMatrix.Builder b = CsrMatrix.builder(GENES.length);
        for (float[] row : X) {
            int n = 0;
            for (float v : row) {
                n += v != 0 ? 1 : 0;
            }
            int[] idx = new int[n];
            float[] val = new float[n];
            n = 0;
            for (int g = 0; g < row.length; g++) {
                if (row[g] != 0) {
                    idx[n] = g;
                    val[n++] = row[g];
                }
            }
            b.addRow(idx, val);
        }
        String[] cells = new String[X.length];
        Arrays.setAll(cells, i -> "c" + i);
        Frame obs = new Frame(cells);
        obs.put("group", ArrayColumn.of(GROUP));
        return new AnnData(b.build(), obs, new Frame(GENES));
    }

    private static Map<String, Object> run(AnnData data, RankGenesGroupsOptions options) {
        return results(RankGenesGroups.rankGenesGroups(data, options, Streaming.DEFAULT.withThreads(2))
                .block());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> results(AnnData out) {
        return (Map<String, Object>) out.uns().get("rank_genes_groups");
    }

    // ---- the direct calculation ----

    /** The cells of {@code group} (null: those of no group), or every cell but them ({@code but}). */
    private static boolean[] cells(String group, boolean but) {
        boolean[] in = new boolean[X.length];
        for (int i = 0; i < in.length; i++) {
            in[i] = group.equals(GROUP[i]) != but;
        }
        return in;
    }

    private static boolean[] union(boolean[] a, boolean[] b) {
        boolean[] out = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] || b[i];
        }
        return out;
    }

    private static double[] column(int gene, boolean[] in) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < X.length; i++) {
            if (in[i]) {
                out.add((double) X[i][gene]);
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double mean(double[] v) {
        return Arrays.stream(v).sum() / v.length;
    }

    private static double variance(double[] v) {
        double m = mean(v);
        return Arrays.stream(v).map(x -> (x - m) * (x - m)).sum() / (v.length - 1);
    }

    /** Welch's t and its two-sided p-value, the other set's variance over {@code n2} cells; NaN: 0 and 1. */
    private static double[] welch(double[] a, double[] b, double n2) {
        double vn1 = variance(a) / a.length;
        double vn2 = variance(b) / n2;
        double t = (mean(a) - mean(b)) / Math.sqrt(vn1 + vn2);
        if (Double.isNaN(t)) {
            return new double[] {0, 1};
        }
        double df = (vn1 + vn2) * (vn1 + vn2) / (vn1 * vn1 / (a.length - 1) + vn2 * vn2 / (n2 - 1));
        return new double[] {
            t, 2 * new TDistribution(null, Double.isNaN(df) ? 1 : df).cumulativeProbability(-Math.abs(t))
        };
    }

    /**
     * The Wilcoxon z of the cells {@code group} among the cells {@code among}: each value's rank the number of values
     * below it plus half the number equal to it plus one half, summed over the group.
     */
    private static double wilcoxon(int gene, boolean[] group, boolean[] among, boolean tieCorrect) {
        double[] all = column(gene, among);
        double r = 0;
        for (int i = 0; i < X.length; i++) {
            if (group[i]) {
                double v = X[i][gene];
                double below = Arrays.stream(all).filter(x -> x < v).count();
                double equal = Arrays.stream(all).filter(x -> x == v).count();
                r += below + (equal + 1) / 2;
            }
        }
        double n = column(gene, group).length;
        double total = all.length;
        double m = total - n;
        double t = 1;
        if (tieCorrect) {
            double ties = 0;
            for (double v : Arrays.stream(all).distinct().toArray()) {
                double c = Arrays.stream(all).filter(x -> x == v).count();
                ties += c * c * c - c;
            }
            t = 1 - ties / (total * total * total - total);
        }
        double z = (r - n * (total + 1) / 2) / Math.sqrt(t * n * m * (total + 1) / 12);
        return Double.isNaN(z) ? 0 : z;
    }

    /** Benjamini-Hochberg as defined: {@code min(1, min over p_j >= p_i of n p_j / rank_j)}. */
    private static double[] benjaminiHochberg(double[] p) {
        double[] sorted = p.clone();
        Arrays.sort(sorted);
        double[] out = new double[p.length];
        for (int i = 0; i < p.length; i++) {
            double best = 1;
            for (int j = 0; j < sorted.length; j++) {
                if (sorted[j] >= p[i]) {
                    best = Math.min(best, sorted[j] * p.length / (j + 1));
                }
            }
            out[i] = best;
        }
        return out;
    }

    /** A group's expected columns by gene: score, p-value. */
    private static double[][] expected(Method method, String group, String reference, boolean tieCorrect) {
        boolean[] mine = cells(group, false);
        boolean[] other = reference == null ? cells(group, true) : cells(reference, false);
        double[][] out = new double[GENES.length][];
        for (int g = 0; g < GENES.length; g++) {
            double[] a = column(g, mine);
            double[] b = column(g, other);
            if (method == Method.WILCOXON) {
                double z = wilcoxon(g, mine, union(mine, other), tieCorrect);
                out[g] = new double[] {z, 2 * new NormalDistribution(null, 0, 1).cumulativeProbability(-Math.abs(z))};
            } else {
                out[g] = welch(a, b, method == Method.T_TEST ? b.length : a.length);
            }
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({
        "T_TEST,,false",
        "T_TEST_OVERESTIM_VAR,,false",
        "WILCOXON,,false",
        "WILCOXON,,true",
        "T_TEST,B,false",
        "T_TEST_OVERESTIM_VAR,B,false",
        "WILCOXON,B,false",
        "WILCOXON,B,true"
    })
    void matchesTheDirectCalculation(Method method, String reference, boolean tieCorrect) {
        RankGenesGroupsOptions o = RankGenesGroupsOptions.of("group")
                .withMethod(method)
                .withTieCorrect(tieCorrect)
                .withReference(reference == null ? RankGenesGroupsOptions.REST : reference)
                .withCorrMethod(CorrMethod.BENJAMINI_HOCHBERG);
        Map<String, Object> r = run(small(), o);
        List<String> tested = reference == null ? List.of("A", "B", "C") : List.of("A", "C");
        assertEquals(tested, List.copyOf(((RecordArray) r.get("names")).fields().keySet()));
        for (String group : tested) {
            double[][] e = expected(method, group, reference, tieCorrect);
            String[] names = field(r, "names", group).strings();
            double[] p = new double[GENES.length];
            for (int g = 0; g < GENES.length; g++) {
                p[g] = e[g][1];
            }
            double[] adjusted = benjaminiHochberg(p);
            double previous = Double.POSITIVE_INFINITY;
            for (int i = 0; i < names.length; i++) {
                int g = Arrays.asList(GENES).indexOf(names[i]);
                String what = method + " " + group + " vs " + reference + " " + names[i];
                assertTrue(e[g][0] <= previous, what + ": genes by score, highest first");
                previous = e[g][0];
                assertClose(e[g][0], field(r, "scores", group).getDouble(i), 1e-6, what + " score");
                assertClose(e[g][1], field(r, "pvals", group).getDouble(i), 1e-10, what + " pval");
                assertClose(adjusted[g], field(r, "pvals_adj", group).getDouble(i), 1e-10, what + " pval_adj");
                double mine = mean(column(g, cells(group, false)));
                double other = mean(column(g, reference == null ? cells(group, true) : cells(reference, false)));
                double lfc = Math.log((Math.expm1(mine) + 1e-9) / (Math.expm1(other) + 1e-9)) / Math.log(2);
                // a negative mean makes expm1 negative and the log NaN, in scanpy too
                assertClose(lfc, field(r, "logfoldchanges", group).getDouble(i), 1e-6, what + " logfoldchange");
            }
        }
    }

    /** Within {@code relative} of {@code expected}, NaN where NaN is expected (float32 fields: 1e-6). */
    private static void assertClose(double expected, double actual, double relative, String what) {
        if (Double.isNaN(expected)) {
            assertTrue(Double.isNaN(actual), what + ": expected NaN, got " + actual);
        } else {
            assertEquals(expected, actual, relative * Math.abs(expected), what);
        }
    }

    @Test
    void pValuesAsScipys() {
        // scipy 1.10: 2 * stats.t.sf(t, df) and 2 * stats.norm.sf(z)
        assertEquals(0.07338803477074039, WelchTest.twoSided(2.0, 10), 1e-14);
        assertEquals(0.6171173855962737, WelchTest.twoSided(-0.5, 2600.3), 1e-13);
        assertEquals(1.4291532963716983e-14, WelchTest.twoSided(40, 12.5), 1e-12 * 1.43e-14);
        assertEquals(8.072952207221281e-299, WelchTest.twoSided(65, 700.2), 1e-10 * 8.07e-299);
        assertEquals(0.9992564554718668, WelchTest.twoSided(1e-3, 3.5), 1e-13);
        assertEquals(0.920344325445942, RankGenesGroups.normalTwoSided(0.1), 1e-14);
        assertEquals(0.13361440253771614, RankGenesGroups.normalTwoSided(-1.5), 1e-14);
        assertEquals(9.813427854295816e-198, RankGenesGroups.normalTwoSided(30), 1e-12 * 9.81e-198);
        assertEquals(9.210706019163908e-308, RankGenesGroups.normalTwoSided(37.5), 1e-10 * 9.21e-308);
    }

    @Test
    void storesWhatScanpyStoresWhereItStoresIt() {
        AnnData in = small();
        AnnData out = RankGenesGroups.rankGenesGroups(
                        in,
                        RankGenesGroupsOptions.of("group")
                                .withPts(true)
                                .withGroups(List.of("C", "A"))
                                .withNGenes(3)
                                .withCorrMethod(CorrMethod.BONFERRONI),
                        Streaming.DEFAULT)
                .block();
        assertFalse(in.uns().containsKey("rank_genes_groups"), "the input is left as it was");
        Map<String, Object> r = results(out);
        assertEquals(
                List.of("params", "pts", "pts_rest", "names", "scores", "pvals", "pvals_adj", "logfoldchanges"),
                List.copyOf(r.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> params = (Map<String, Object>) r.get("params");
        assertEquals("group", params.get("groupby"));
        assertEquals("rest", params.get("reference"));
        assertEquals("t-test", params.get("method"));
        assertEquals(DenseArray.scalar(false), params.get("use_raw"));
        assertEquals("bonferroni", params.get("corr_method"));
        for (String key : List.of("names", "scores", "pvals", "pvals_adj", "logfoldchanges")) {
            RecordArray a = assertInstanceOf(RecordArray.class, r.get(key));
            assertEquals(List.of("C", "A"), List.copyOf(a.fields().keySet()), key + ": the groups asked, in order");
            assertEquals(3, a.size(), key + ": n_genes");
        }
        assertEquals(DType.FLOAT32, field(r, "scores", "A").dtype());
        assertEquals(DType.FLOAT32, field(r, "logfoldchanges", "A").dtype());
        assertEquals(DType.FLOAT64, field(r, "pvals_adj", "A").dtype());
        double[][] e = expected(Method.T_TEST, "A", null, false);
        for (int i = 0; i < 3; i++) {
            int g = Arrays.asList(GENES).indexOf(field(r, "names", "A").strings()[i]);
            assertEquals(
                    Math.min(1, e[g][1] * GENES.length),
                    field(r, "pvals_adj", "A").getDouble(i),
                    1e-12,
                    "bonferroni over all 5 genes");
        }
        Frame pts = assertInstanceOf(Frame.class, r.get("pts"));
        Frame rest = assertInstanceOf(Frame.class, r.get("pts_rest"));
        assertArrayEquals(GENES, pts.index(), "genes in var order, as scanpy's data frame");
        assertEquals(List.of("C", "A"), List.copyOf(pts.columns().keySet()));
        for (int g = 0; g < GENES.length; g++) {
            for (String group : List.of("C", "A")) {
                assertEquals(nonzero(g, cells(group, false)), Tolerance.doubles(pts.column(group))[g], 1e-15);
                assertEquals(nonzero(g, cells(group, true)), Tolerance.doubles(rest.column(group))[g], 1e-15);
            }
        }
    }

    private static double nonzero(int gene, boolean[] in) {
        return Arrays.stream(column(gene, in)).filter(v -> v != 0).count() / (double) column(gene, in).length;
    }

    @Test
    void againstAReferenceItIsAddedToTheGroupsAndLeftOutOfTheResults() {
        Map<String, Object> r = run(
                small(),
                RankGenesGroupsOptions.of("group")
                        .withGroups(List.of("C"))
                        .withReference("A")
                        .withPts(true));
        assertEquals(
                List.of("C"),
                List.copyOf(((RecordArray) r.get("names")).fields().keySet()));
        assertEquals(
                List.of("C", "A"), List.copyOf(((Frame) r.get("pts")).columns().keySet()));
        assertFalse(r.containsKey("pts_rest"), "no rest against a reference");
    }

    @Test
    void refusesWhatScanpyRefuses() {
        AnnData data = small();
        assertThrows(MissingColumnException.class, () -> run(data, RankGenesGroupsOptions.of("cluster")));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> run(data, RankGenesGroupsOptions.of("group").withReference("D")));
        assertEquals("reference = D needs to be one of groupby = [A, B, C].", e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> run(data, RankGenesGroupsOptions.of("group").withGroups(List.of("A", "E"))));
        assertTrue(e.getMessage().contains("'E' is not a category of obs column 'group'"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> run(data, RankGenesGroupsOptions.of("group").withLayer("counts")));
        assertTrue(e.getMessage().contains("no layer 'counts'"), e.getMessage());
        AnnData singlet = small();
        String[] groups = GROUP.clone();
        groups[12] = "D";
        singlet.obs().put("group", ArrayColumn.of(groups));
        e = assertThrows(IllegalArgumentException.class, () -> run(singlet, RankGenesGroupsOptions.of("group")));
        assertEquals("Could not calculate statistics for groups D since they only contain one sample.", e.getMessage());
        singlet.obs().put("number", ArrayColumn.of(new int[X.length]));
        e = assertThrows(IllegalArgumentException.class, () -> run(singlet, RankGenesGroupsOptions.of("number")));
        assertTrue(e.getMessage().contains("must be categorical or hold strings"), e.getMessage());
        AnnData nan = new AnnData(
                CsrMatrix.of(1, new long[] {0, 1, 1, 2, 2}, new int[] {0, 0}, new float[] {1, Float.NaN}),
                new Frame(new String[] {"a", "b", "c", "d"}),
                new Frame(new String[] {"g"}));
        nan.obs().put("group", CategoricalColumn.fromValues(new String[] {"x", "x", "y", "y"}));
        InvalidValueException invalid =
                assertThrows(InvalidValueException.class, () -> run(nan, RankGenesGroupsOptions.of("group")));
        assertTrue(invalid.getMessage().contains("NaN at cell 'c'"), invalid.getMessage());
    }

    @Test
    void warnsAsScanpyOnRawCountsOnly() {
        List<String> warnings = new ArrayList<>();
        Streaming s = Streaming.DEFAULT.withWarnings(warnings::add);
        RankGenesGroups.rankGenesGroups(small(), RankGenesGroupsOptions.of("group"), s)
                .block();
        assertEquals(List.of(), warnings, "fractional and negative values are no counts");
        AnnData counts = new AnnData(
                CsrMatrix.of(1, new long[] {0, 1, 1, 2, 2}, new int[] {0, 0}, new float[] {3, 1}),
                new Frame(new String[] {"a", "b", "c", "d"}),
                new Frame(new String[] {"g"}));
        counts.obs().put("group", CategoricalColumn.fromValues(new String[] {"x", "x", "y", "y"}));
        RankGenesGroups.rankGenesGroups(counts, RankGenesGroupsOptions.of("group"), s)
                .block();
        assertEquals(
                List.of("It seems you use rank_genes_groups on the raw count data. Please logarithmize your "
                        + "data before calling rank_genes_groups."),
                warnings);
    }

    @ParameterizedTest
    @EnumSource(Method.class)
    void sameBitsWithAnyThreadsAndPlan(Method method) {
        AnnData data = ReferenceInput.log1pExact();
        RankGenesGroupsOptions o =
                RankGenesGroupsOptions.of("cell_type").withMethod(method).withPts(true);
        Map<String, Object> base = results(
                RankGenesGroups.rankGenesGroups(data, o, Streaming.DEFAULT).block());
        for (Threads t : Threads.values()) {
            for (BlockSize b : List.of(BlockSize.TINY, BlockSize.SMALL, BlockSize.DEFAULT)) {
                Map<String, Object> out =
                        results(RankGenesGroups.rankGenesGroups(data, o, new Streaming(b.target(), t.execution()))
                                .block());
                for (String key : List.of("names", "scores", "pvals", "pvals_adj", "logfoldchanges")) {
                    assertEquals(base.get(key), out.get(key), method + " " + t + " " + b + " " + key);
                }
                Tolerance.assertSameColumns((Frame) base.get("pts"), (Frame) out.get("pts"));
            }
        }
    }

    /** Ranges gathered by passes over X, and through a spill on disk, which is gone afterwards. */
    @Test
    void wilcoxonScoresDoNotDependOnTheGeneRangesNorOnHowTheyAreGathered() throws IOException {
        // the first 100 genes, so that a pass per gene stays quick
        AnnData data = ReferenceInput.log1pExact().subset(Selection.all(), Selection.range(0, 100));
        for (String reference : List.of(RankGenesGroupsOptions.REST, "T03")) {
            GroupLabels groups = GroupLabels.of(
                    data.obs(), RankGenesGroupsOptions.of("cell_type").withReference(reference));
            GeneSums.Sums sums = Streaming.DEFAULT
                    .reduce(data.x(), GeneSums.nonzeroValues(groups.labelOfCell, groups.labels(), data.nVars()))
                    .block();
            double[][] whole = RankSums.zScores(data.x(), groups, sums, true, Streaming.DEFAULT)
                    .block();
            // about 40 genes a range, and one (every gene holds more than 8 bytes of values); a pass each, or spilled
            for (long bytes : new long[] {200_000, 8}) {
                for (int passes : new int[] {Integer.MAX_VALUE, 0}) {
                    double[][] ranged = RankSums.zScores(
                                    data.x(), groups, sums, true, Streaming.DEFAULT.withThreads(2), bytes, passes)
                            .block();
                    for (int k = 0; k < whole.length; k++) {
                        if (!Arrays.equals(whole[k], ranged[k])) {
                            fail(reference + ", ranges of " + bytes + " bytes, " + passes + " passes: group " + k
                                    + " differs");
                        }
                    }
                }
            }
            assertEquals(
                    List.of(),
                    TemporaryFiles.writing().stream()
                            .filter(f -> f.getFileName().toString().startsWith(".wilcoxon.scflux-"))
                            .toList(),
                    "spills forgotten");
            Path scratch = Streaming.DEFAULT.settings().cacheDir(); // where the passes above spilled
            if (Files.isDirectory(scratch)) {
                try (Stream<Path> files = Files.list(scratch)) {
                    assertEquals(
                            List.of(),
                            files.filter(f -> f.getFileName().toString().startsWith(".wilcoxon.scflux-"))
                                    .toList(),
                            "spills deleted");
                }
            }
        }
    }

    private static DenseArray field(Map<String, Object> r, String key, String group) {
        return ((RecordArray) r.get(key)).field(group);
    }
}
