/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.qc;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.FoldingSource;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.MissingColumnException;
import io.scflux.core.anndata.PendingColumns;
import io.scflux.ops.values.SumType;
import io.scflux.ops.values.TypedSums;
import io.scflux.ops.values.ValueCheck;
import io.scflux.ops.values.XMatrix;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code pp.calculate_qc_metrics(adata, qc_vars, percent_top, log1p, inplace=True)} in one pass over X:
 * adds to obs {@code n_genes_by_counts}, {@code total_counts}, {@code pct_counts_in_top_{n}_genes} and, per qc
 * variable, {@code total_counts_{qc}} and {@code pct_counts_{qc}}; to var {@code n_cells_by_counts},
 * {@code mean_counts}, {@code pct_dropout_by_counts} and {@code total_counts}; with log1p, the {@code log1p_*} of
 * each count. Names and dtypes are scanpy's (totals in X's sum type: float32 for float32 data).
 */
public final class QcMetrics {

    private QcMetrics() {}

    /**
     * Computes the metrics on subscription and emits a copy of {@code data} (left as it is) with them in its obs and
     * var.
     */
    public static Mono<AnnData> calculate(AnnData data, QcMetricsOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData out = data.copy();
                    return run(out, options, streaming).thenReturn(out);
                })
                .contextWrite(Pass.named("qc"));
    }

    /**
     * Emits a copy of {@code data} (left as it is) whose X is a view of its X that folds the metrics as the next
     * pass reads it, with the columns pending ({@link PendingColumns}): {@link AnnData#complete} puts them, from that
     * pass's fold when it read every block, else from a pass of its own. What a front end that runs one step at a
     * time (the Python container) calls, so that QC costs no pass of its own when a step that reads X follows. A
     * container with columns pending already gets {@link #calculate}'s pass instead.
     *
     * @param data      the container
     * @param options   the metrics asked for
     * @param streaming how X is read
     * @return a cold Mono of the copy
     */
    public static Mono<AnnData> riding(AnnData data, QcMetricsOptions options, Streaming streaming) {
        return Mono.defer(() -> {
            if (data.pending() != null) {
                return calculate(data, options, streaming);
            }
            AnnData out = data.copy();
            BlockSource x = XMatrix.of(out);
            QcPass pass = pass(out, options, x, streaming);
            FoldingSource<QcPass.Sums> folding = new FoldingSource<>(
                    x,
                    x.plan(streaming.target()),
                    pass,
                    block -> {},
                    streaming.reduce(x, pass).contextWrite(Pass.named("qc")));
            out.setX(folding);
            Frame obs = out.obs().indexOnly();
            Frame var = out.var().indexOnly();
            return Mono.just(out.setPending(new PendingColumns(
                    folding.result().map(sums -> {
                        AnnData columns = new AnnData(null, obs.copy(), var.copy());
                        annotate(columns, options, pass, sums, streaming);
                        return columns;
                    }),
                    AnnData::obs,
                    AnnData::var)));
        });
    }

    /** The pass and the columns it adds; emits its per-cell results, whose totals {@code Preprocess} reuses. */
    public static Mono<QcPass.Cells> run(AnnData data, QcMetricsOptions options, Streaming streaming) {
        return Mono.defer(() -> {
            BlockSource x = XMatrix.of(data);
            QcPass pass = pass(data, options, x, streaming);
            return streaming.reduce(x, pass).map(sums -> annotate(data, options, pass, sums, streaming));
        });
    }

    /** scanpy's name of the step, in its messages. */
    static final String STEP = "`calculate_qc_metrics`";

    /**
     * The pass over {@code x}, the X of {@code data}, as {@code options} ask; warns of a qc variable that marks no
     * gene (scanpy is silent: its columns are then zeros, as with mouse genes named {@code mt-} and a prefix
     * {@code MT-}).
     */
    public static QcPass pass(AnnData data, QcMetricsOptions options, BlockSource x, Streaming streaming) {
        boolean[][] masks = masks(data.var(), options.qcVars());
        for (int q = 0; q < masks.length; q++) {
            if (count(masks[q]) == 0) {
                streaming.warn("qc variable '" + options.qcVars().get(q) + "' marks no gene: total_counts_"
                        + options.qcVars().get(q) + " and pct_counts_"
                        + options.qcVars().get(q)
                        + " are 0 for every cell");
            }
        }
        return new QcPass(
                data.nObs(),
                data.nVars(),
                masks,
                ranks(options.percentTop(), data.nVars()),
                SumType.summing(x.dtype()));
    }

    private static int count(boolean[] mask) {
        int n = 0;
        for (boolean b : mask) {
            n += b ? 1 : 0;
        }
        return n;
    }

    /**
     * Adds the columns of {@code pass}, whose partial over the whole of X is {@code sums}, once its values were found
     * to be counts (else the error or warning of {@link ValueCheck#check}); returns its cells.
     */
    public static QcPass.Cells annotate(
            AnnData data, QcMetricsOptions options, QcPass pass, QcPass.Sums sums, Streaming streaming) {
        ValueCheck.check(data, sums.findings, STEP, ValueCheck.Expect.COUNTS, streaming);
        QcPass.Cells cells = pass.cells(sums);
        annotateObs(data.obs(), options, cells);
        annotateVar(data.var(), options, sums, data.nObs(), cells.totals.type());
        return cells;
    }

    /**
     * The obs columns over the pass's arrays, not copies of them; the log1p and percentage columns are computed from
     * those arrays when read, so a million cells' QC columns hold 28 bytes a cell (float32 data, one qc variable, four
     * ranks) rather than 84.
     */
    private static void annotateObs(Frame obs, QcMetricsOptions options, QcPass.Cells pass) {
        int n = pass.nGenes.length;
        int[] nGenes = pass.nGenes;
        TypedSums totals = pass.totals;
        SumType type = totals.type();
        obs.put("n_genes_by_counts", ArrayColumn.of(nGenes));
        if (options.log1p()) {
            obs.put("log1p_n_genes_by_counts", SumType.INT64.log1p(n, i -> nGenes[i]));
        }
        obs.put("total_counts", totals.column());
        if (options.log1p()) {
            obs.put("log1p_total_counts", type.log1p(n, totals::get));
        }
        List<Integer> ranks = options.percentTop();
        for (int j = 0; j < ranks.size(); j++) {
            TypedSums top = pass.topSums[j];
            // scanpy: top sums and totals in X's sum type, their quotient in float64, times 100
            obs.put(
                    "pct_counts_in_top_" + ranks.get(j) + "_genes",
                    ArrayColumn.computed(DType.FLOAT64, n, i -> top.get(i) / totals.get(i) * 100));
        }
        for (int q = 0; q < options.qcVars().size(); q++) {
            String name = options.qcVars().get(q);
            TypedSums qc = pass.qcTotals[q];
            obs.put("total_counts_" + name, qc.column());
            if (options.log1p()) {
                obs.put("log1p_total_counts_" + name, type.log1p(n, qc::get));
            }
            obs.put("pct_counts_" + name, qc.percentOf(totals));
        }
    }

    private static void annotateVar(Frame var, QcMetricsOptions options, QcPass.Sums genes, int nObs, SumType type) {
        int n = genes.sums.length;
        double[] mean = new double[n];
        double[] dropout = new double[n];
        for (int g = 0; g < n; g++) {
            mean[g] = genes.sums[g] / nObs;
            dropout[g] = (1 - (double) genes.cells[g] / nObs) * 100;
        }
        var.put("n_cells_by_counts", ArrayColumn.of(genes.cells.clone()));
        var.put("mean_counts", ArrayColumn.of(mean));
        if (options.log1p()) {
            var.put("log1p_mean_counts", SumType.FLOAT64.log1p(n, i -> mean[i]));
        }
        var.put("pct_dropout_by_counts", ArrayColumn.of(dropout));
        TypedSums totals = TypedSums.of(type, genes.sums);
        var.put("total_counts", totals.column());
        if (options.log1p()) {
            var.put("log1p_total_counts", type.log1p(n, totals::get));
        }
    }

    /** Each qc variable's bool var column as a gene mask. */
    private static boolean[][] masks(Frame var, List<String> qcVars) {
        boolean[][] masks = new boolean[qcVars.size()][];
        for (int q = 0; q < masks.length; q++) {
            String name = qcVars.get(q);
            if (!var.has(name)) {
                throw new MissingColumnException("qc variable " + name + " is not a var column (columns: "
                        + var.columns().keySet() + ")");
            }
            Column c = var.column(name);
            if (!(c instanceof ArrayColumn a) || a.dtype() != DType.BOOL) {
                throw new IllegalArgumentException(
                        "qc variable " + name + " must be a bool var column, found " + c.typeName());
            }
            masks[q] = (boolean[]) a.values().data();
        }
        return masks;
    }

    /** The ranks as an array, each at most the number of genes (scanpy: "Positions outside range of features"). */
    private static int[] ranks(List<Integer> percentTop, int nVars) {
        int[] out = new int[percentTop.size()];
        for (int j = 0; j < out.length; j++) {
            out[j] = percentTop.get(j);
            if (out[j] > nVars) {
                throw new IllegalArgumentException(
                        "percent_top rank " + out[j] + " is more than the " + nVars + " genes");
            }
        }
        return out;
    }

    /** A bool var column marking the genes whose name starts with {@code prefix} ({@code str.startswith}). */
    public static Column genesStartingWith(Frame var, String prefix) {
        String[] names = var.index();
        boolean[] mask = new boolean[names.length];
        for (int g = 0; g < names.length; g++) {
            mask[g] = names[g].startsWith(prefix);
        }
        return new ArrayColumn(DenseArray.of(mask));
    }
}
