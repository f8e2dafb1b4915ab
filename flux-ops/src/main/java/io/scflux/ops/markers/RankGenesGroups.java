/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.markers;

import io.scflux.core.BlockSource;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.RecordArray;
import io.scflux.ops.markers.RankGenesGroupsOptions.Method;
import io.scflux.ops.moments.GeneSums;
import io.scflux.ops.moments.LogBase;
import io.scflux.ops.values.ValueCheck;
import io.scflux.ops.values.XMatrix;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.math3.special.Erf;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code tl.rank_genes_groups} (1.11) on log-normalized data, out of core: each group's genes ranked by a
 * t-test or a Wilcoxon rank-sum test against the rest of the cells (or a reference group), with scanpy's statistics,
 * p-value corrections and order, under {@code uns["rank_genes_groups"]} as scanpy leaves them, so that
 * {@code sc.get.rank_genes_groups_df} and {@code sc.pl.rank_genes_groups} read the file.
 *
 * <p>One pass over X gives every group's sums, sums of squares and non-zero counts per gene, merged in block order
 * ({@link GeneSums}): the t-tests need nothing else. The Wilcoxon test then ranks each gene's values over all cells, a
 * range of genes per pass ({@link RankSums}), in memory bounded by one range whatever the number of cells. The bits
 * depend neither on the thread count nor, for the Wilcoxon scores, on the block plan.
 */
public final class RankGenesGroups {

    /** The key of the results in uns, scanpy's default {@code key_added}. */
    public static final String KEY = "rank_genes_groups";

    /** What scipy's normal tail multiplies |z| by before {@code erfc} (cephes' {@code SQRTH}). */
    private static final double SQRT1_2 = 0.70710678118654752440;

    private static final double LN2 = Math.log(2);

    private RankGenesGroups() {}

    /**
     * On subscription, reads X (or the layer of {@code options}) once (the Wilcoxon test: once more, or once per range
     * of genes when there are at most two), and emits a copy of {@code input} (left as it is) with
     * {@code uns["rank_genes_groups"]}: {@code params} (groupby, reference, method, use_raw false, layer when set, corr_method), with {@code pts} the data frames
     * {@code pts} (and {@code pts_rest} against the rest), genes by groups, then the structured arrays {@code names},
     * {@code scores} (float32), {@code pvals}, {@code pvals_adj} (float64) and {@code logfoldchanges} (float32), one
     * field per tested group, its genes best first. Warns as scanpy does when X holds raw counts.
     */
    public static Mono<AnnData> rankGenesGroups(AnnData input, RankGenesGroupsOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData data = input.copy();
                    BlockSource x = matrix(data, options.layer());
                    GroupLabels groups = GroupLabels.of(data.obs(), options);
                    GeneSums pass = GeneSums.nonzeroValues(groups.labelOfCell, groups.labels(), x.nCols());
                    return ValueCheck.reduce(
                                    data, x, pass, "`rank_genes_groups`", ValueCheck.Expect.LOGARITHMIZED, streaming)
                            .flatMap(sums -> {
                                GroupMoments[][] compared = compared(groups, sums);
                                return scores(x, groups, sums, compared, options, streaming)
                                        .map(scores -> results(data, groups, sums, compared, scores, options));
                            })
                            .map(results -> {
                                data.uns().put(KEY, results);
                                return data;
                            });
                })
                .contextWrite(Pass.named("rank_genes_groups"));
    }

    private static BlockSource matrix(AnnData data, @Nullable String layer) {
        if (layer == null) {
            return XMatrix.of(data);
        }
        BlockSource l = data.layers().get(layer);
        if (l == null) {
            throw new IllegalArgumentException("rank_genes_groups: no layer '" + layer + "' (layers: "
                    + data.layers().keySet() + ")");
        }
        return l;
    }

    /**
     * Per tested group (in {@link GroupLabels#tested} order): its moments and those of the cells it is compared with,
     * the rest or the reference.
     */
    private static GroupMoments[][] compared(GroupLabels groups, GeneSums.Sums sums) {
        int[] tested = groups.tested();
        GroupMoments ref = groups.reference < 0 ? null : GroupMoments.ofLabel(sums, groups.reference);
        GroupMoments[][] out = new GroupMoments[tested.length][];
        for (int k = 0; k < tested.length; k++) {
            out[k] = new GroupMoments[] {
                GroupMoments.ofLabel(sums, tested[k]), ref != null ? ref : GroupMoments.allBut(sums, tested[k])
            };
        }
        return out;
    }

    /** Per tested group: the scores and the p-values of every gene. */
    private static Mono<double[][][]> scores(
            BlockSource x,
            GroupLabels groups,
            GeneSums.Sums sums,
            GroupMoments[][] compared,
            RankGenesGroupsOptions options,
            Streaming streaming) {
        int[] tested = groups.tested();
        if (options.method() == Method.WILCOXON) {
            return RankSums.zScores(x, groups, sums, options.tieCorrect(), streaming)
                    .map(z -> {
                        double[][][] out = new double[tested.length][][];
                        for (int k = 0; k < tested.length; k++) {
                            double[] p = new double[z[k].length];
                            for (int g = 0; g < p.length; g++) {
                                p[g] = normalTwoSided(z[k][g]);
                            }
                            out[k] = new double[][] {z[k], p};
                        }
                        return out;
                    });
        }
        double[][][] out = new double[tested.length][][];
        for (int k = 0; k < tested.length; k++) {
            GroupMoments group = compared[k][0];
            GroupMoments other = compared[k][1];
            long n2 = options.method() == Method.T_TEST_OVERESTIM_VAR ? group.n() : other.n();
            out[k] = WelchTest.test(group, other, n2);
        }
        return Mono.just(out);
    }

    /** scipy's {@code 2 * norm.sf(|z|)}: {@code erfc(|z| / sqrt(2))}. */
    static double normalTwoSided(double z) {
        return Erf.erfc(Math.abs(z) * SQRT1_2);
    }

    /** {@code uns["rank_genes_groups"]}, in scanpy's order of keys. */
    private static Map<String, Object> results(
            AnnData data,
            GroupLabels groups,
            GeneSums.Sums sums,
            GroupMoments[][] compared,
            double[][][] scores,
            RankGenesGroupsOptions options) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("groupby", options.groupby());
        params.put("reference", options.reference());
        params.put("method", options.method().scanpyName());
        params.put("use_raw", DenseArray.scalar(false));
        params.put("layer", options.layer());
        params.put("corr_method", options.corrMethod().scanpyName());
        out.put("params", params);
        String[] genes = data.var().index();
        if (options.pts()) {
            out.put("pts", fractions(groups, sums, genes, false));
            if (groups.reference < 0) {
                out.put("pts_rest", fractions(groups, sums, genes, true));
            }
        }
        int[] tested = groups.tested();
        int nGenes = genes.length;
        int kept = options.nGenes() == null ? nGenes : Math.min(options.nGenes(), nGenes);
        double lnBase = LogBase.lnBase(data);
        Map<String, DenseArray> names = new LinkedHashMap<>();
        Map<String, DenseArray> score = new LinkedHashMap<>();
        Map<String, DenseArray> pvals = new LinkedHashMap<>();
        Map<String, DenseArray> adjusted = new LinkedHashMap<>();
        Map<String, DenseArray> lfc = new LinkedHashMap<>();
        for (int k = 0; k < tested.length; k++) {
            String group = groups.names[tested[k]];
            double[] s = scores[k][0];
            double[] p = scores[k][1];
            int[] order = best(s, kept);
            double[] adj = options.corrMethod().adjust(p);
            GroupMoments mine = compared[k][0];
            GroupMoments other = compared[k][1];
            String[] n = new String[kept];
            float[] sc = new float[kept];
            double[] pv = new double[kept];
            double[] pa = new double[kept];
            float[] fc = new float[kept];
            for (int i = 0; i < kept; i++) {
                int g = order[i];
                n[i] = genes[g];
                sc[i] = (float) s[g];
                pv[i] = p[g];
                pa[i] = adj[g];
                fc[i] = (float) log2(
                        (Math.expm1(mine.mean()[g] * lnBase) + 1e-9) / (Math.expm1(other.mean()[g] * lnBase) + 1e-9));
            }
            names.put(group, DenseArray.of(n));
            score.put(group, DenseArray.of(sc));
            pvals.put(group, DenseArray.of(pv));
            adjusted.put(group, DenseArray.of(pa));
            lfc.put(group, DenseArray.of(fc));
        }
        out.put("names", RecordArray.of(names));
        out.put("scores", RecordArray.of(score));
        out.put("pvals", RecordArray.of(pvals));
        out.put("pvals_adj", RecordArray.of(adjusted));
        out.put("logfoldchanges", RecordArray.of(lfc));
        return out;
    }

    /**
     * The {@code kept} genes of highest score, highest first (scanpy's {@code _select_top_n}; genes of equal score in
     * gene order, where numpy's unstable sort leaves them in an order of its own).
     */
    private static int[] best(double[] scores, int kept) {
        Integer[] order = new Integer[scores.length];
        Arrays.setAll(order, g -> g);
        // equal scores (0 and -0 too) keep gene order: the sort is stable
        Arrays.sort(order, (a, b) -> scores[a] > scores[b] ? -1 : scores[a] < scores[b] ? 1 : 0);
        int[] out = new int[kept];
        for (int i = 0; i < kept; i++) {
            out[i] = order[i];
        }
        return out;
    }

    /** numpy's {@code log2}. */
    private static double log2(double v) {
        return Math.log(v) / LN2;
    }

    /**
     * scanpy's {@code pts} (or {@code pts_rest}): genes by groups of {@code groups_order}, the fraction of each group's
     * cells (or of the rest's) where the gene is not zero.
     */
    private static Frame fractions(GroupLabels groups, GeneSums.Sums sums, String[] genes, boolean rest) {
        Frame f = new Frame(genes);
        for (int k : groups.order) {
            GroupMoments m = rest ? GroupMoments.allBut(sums, k) : GroupMoments.ofLabel(sums, k);
            f.put(groups.names[k], ArrayColumn.of(m.nonzero()));
        }
        return f;
    }
}
