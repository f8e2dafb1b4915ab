/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.FoldingSource;
import io.scflux.core.InvalidOptionException;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.PendingColumns;
import io.scflux.ops.log1p.Log1p;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalize.NormalizeTotal;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.normalize.SizeFactors;
import io.scflux.ops.qc.QcMetrics;
import io.scflux.ops.qc.QcMetricsOptions;
import io.scflux.ops.qc.QcPass;
import io.scflux.ops.values.SumType;
import io.scflux.ops.values.XMatrix;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * QC, normalize_total and log1p fused. With a target sum, no pass of its own: X becomes normalized, log1p-transformed
 * counts whose first full read (the write of X, or the next step's pass) also makes every {@link QcMetrics} column
 * and, from each cell's total as its row is read, the cell's size factor; the columns are left pending
 * ({@link PendingColumns}) and put in obs and var by {@link AnnData#complete}, which the writer calls once X is
 * written (a caller that wants them before, calls it: QC's own pass runs then, unless a read of X made them). Without
 * a target sum the median of the totals is needed before any row is normalized: one pass computes the QC columns,
 * whose totals give the factors. Either way the columns equal {@link QcMetrics}'s and X equals {@link NormalizeTotal}
 * then {@link Log1p}.
 */
public final class Preprocess {

    private static final Logger LOG = LoggerFactory.getLogger(Preprocess.class);

    private Preprocess() {}

    /**
     * Emits a copy of {@code data} (left as it is) with X the fused view and the QC columns, pending with a target sum
     * ({@link AnnData#complete} puts them); without a target sum, runs the QC pass on subscription first.
     */
    public static Mono<AnnData> preprocess(AnnData data, PreprocessOptions options, Streaming streaming) {
        return fused(data, options.qc(), options.normalize(), options.log1p(), streaming);
    }

    /**
     * QC and normalize_total fused, without log1p: what a front end that runs one step at a time (the Python
     * container) asks for when normalize_total follows QC, so that both read X once, as {@link #preprocess} does.
     *
     * @param data      the container, left as it is
     * @param qc        QC's options
     * @param normalize normalize_total's; excluding highly expressed genes is refused, as its totals are not QC's
     * @param streaming how X is read
     * @return a cold Mono of a copy of {@code data} with X the normalized view and the columns of both steps, pending
     *     with a target sum
     * @throws InvalidOptionException when {@code normalize} excludes highly expressed genes
     */
    public static Mono<AnnData> qcAndNormalize(
            AnnData data, QcMetricsOptions qc, NormalizeTotalOptions normalize, Streaming streaming) {
        if (normalize.excludeHighlyExpressed()) {
            throw new InvalidOptionException(
                    "QC's totals are not normalize_total's when it excludes highly expressed genes: run them apart");
        }
        return fused(data, qc, normalize, null, streaming);
    }

    private static Mono<AnnData> fused(
            AnnData data,
            QcMetricsOptions qc,
            NormalizeTotalOptions normalize,
            @Nullable Log1pOptions log1p,
            Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData out = data.copy();
                    if (ridesAlong(normalize, streaming)) {
                        LOG.debug("qc rides along the first full read of X");
                        riding(out, qc, normalize, streaming);
                        logged(out, log1p, streaming);
                        return Mono.just(out);
                    }
                    LOG.debug("qc makes a pass of its own: the size factors need every cell's total first");
                    return QcMetrics.run(out, qc, streaming).map(pass -> {
                        BlockSource counts = XMatrix.of(out);
                        NormalizeTotal.apply(out, counts, pass.totals::get, normalize, streaming);
                        logged(out, log1p, streaming);
                        return out;
                    });
                })
                .contextWrite(Pass.named("qc"));
    }

    private static void logged(AnnData out, @Nullable Log1pOptions log1p, Streaming streaming) {
        if (log1p != null) {
            Log1p.apply(out, log1p, streaming);
        }
    }

    /**
     * Whether QC can ride along the reads of X: each row's factor must follow from its own total (a target sum, not
     * the median, and no highly expressed genes to find first), and the reads must be in this JVM.
     */
    private static boolean ridesAlong(NormalizeTotalOptions normalize, Streaming streaming) {
        return normalize.targetSum() != null
                && !normalize.excludeHighlyExpressed()
                && streaming.engine().isLocal();
    }

    /**
     * Makes X the view over counts that fold QC as they are read, and leaves the columns pending
     * ({@link PendingColumns}): put when that read has ended, by whoever completes them (the writer, after X).
     */
    private static void riding(AnnData out, QcMetricsOptions qc, NormalizeTotalOptions normalize, Streaming streaming) {
        BlockSource counts = XMatrix.of(out);
        QcPass pass = QcMetrics.pass(out, qc, counts, streaming);
        SumType type = SumType.normalizing(counts.dtype());
        double target = type.round(Objects.requireNonNull(normalize.targetSum(), "ridesAlong"));
        double[] factors = new double[Math.toIntExact(counts.nRows())];
        FoldingSource<QcPass.Sums> folding = new FoldingSource<>(
                counts,
                counts.plan(streaming.target()),
                pass,
                block -> factors(
                        pass,
                        target,
                        type,
                        factors,
                        Math.toIntExact(block.rowStart()),
                        Math.toIntExact(block.rowEnd())),
                streaming
                        .reduce(counts, pass)
                        .doOnNext(all -> factors(pass, target, type, factors, 0, factors.length))
                        .contextWrite(Pass.named("qc")));
        NormalizeTotal.view(out, folding, factors, normalize);
        Frame obs = out.obs().indexOnly();
        Frame var = out.var().indexOnly();
        out.setPending(new PendingColumns(
                folding.result().map(sums -> {
                    AnnData columns = new AnnData(null, obs.copy(), var.copy());
                    QcMetrics.annotate(columns, qc, pass, sums, streaming);
                    NormalizeTotal.annotate(columns, counts, pass::total, factors, normalize, streaming);
                    return columns;
                }),
                AnnData::obs,
                AnnData::var));
    }

    /** The factors of rows {@code [from, to)}, from the totals the pass has made for them. */
    private static void factors(QcPass pass, double target, SumType type, double[] factors, int from, int to) {
        for (int i = from; i < to; i++) {
            factors[i] = SizeFactors.factor(pass.total(i), target, type);
        }
    }
}
