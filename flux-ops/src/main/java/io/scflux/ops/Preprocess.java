/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.FoldingSource;
import io.scflux.core.Pass;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.backend.Streaming;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.NullUnmarked;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * QC, normalize_total and log1p fused. With a target sum, no pass of its own: X becomes normalized, log1p-transformed
 * counts whose first full read (the write of X, or the next step's pass) also makes every {@link QcMetrics} column
 * and, from each cell's total as its row is read, the cell's size factor; obs and var get the columns once that read
 * ends (or, looked at sooner, from QC's own pass, run then). Without a target sum the median of the totals is needed
 * before any row is normalized: one pass computes the QC columns, whose totals give the factors. Either way the
 * columns equal {@link QcMetrics}'s and X equals {@link NormalizeTotal} then {@link Log1p}.
 */
@NullUnmarked // its nullness is not annotated yet: NullAway skips it
public final class Preprocess {

    private static final Logger LOG = LoggerFactory.getLogger(Preprocess.class);

    private Preprocess() {}

    /**
     * Emits a copy of {@code data} (left as it is) with the QC columns and X the fused view; without a target sum,
     * runs the QC pass on subscription first.
     */
    public static Mono<AnnData> preprocess(AnnData data, PreprocessOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData out = data.copy();
                    if (ridesAlong(options.normalize(), streaming)) {
                        LOG.debug("qc rides along the first full read of X");
                        riding(out, options, streaming);
                        return Mono.just(out);
                    }
                    LOG.debug("qc makes a pass of its own: the size factors need every cell's total first");
                    return QcMetrics.run(out, options.qc(), streaming).map(pass -> {
                        BlockSource counts = out.x();
                        NormalizeTotal.apply(out, counts, pass.totals::get, options.normalize(), streaming);
                        Log1p.apply(out, options.log1p(), streaming);
                        return out;
                    });
                })
                .contextWrite(Pass.named("qc"));
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

    /** Makes X the view over counts that fold QC as they are read, and defers the columns to the end of that read. */
    private static void riding(AnnData out, PreprocessOptions options, Streaming streaming) {
        BlockSource counts = XMatrix.of(out);
        QcPass pass = QcMetrics.pass(out, options.qc(), counts, streaming);
        SumType type = SumType.normalizing(counts.dtype());
        double target = type.round(options.normalize().targetSum());
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
                () -> {
                    QcPass.Sums all = join(streaming.reduce(counts, pass).contextWrite(Pass.named("qc")));
                    factors(pass, target, type, factors, 0, factors.length);
                    return all;
                });
        NormalizeTotal.view(out, folding, factors, options.normalize());
        Log1p.apply(out, options.log1p(), streaming);
        Runnable complete = new Once(() -> {
            QcMetrics.annotate(out, options.qc(), pass, folding.result(), streaming);
            NormalizeTotal.annotate(out, counts, pass::total, factors, options.normalize(), streaming);
        });
        out.obs().defer(complete);
        out.var().defer(complete);
    }

    /** The factors of rows {@code [from, to)}, from the totals the pass has made for them. */
    private static void factors(QcPass pass, double target, SumType type, double[] factors, int from, int to) {
        for (int i = from; i < to; i++) {
            factors[i] = SizeFactors.factor(pass.total(i), target, type);
        }
    }

    /**
     * The value of {@code pass}, waited for on this thread whatever it is: QC's own pass, run because a column was
     * looked at before X was read.
     */
    private static <T> T join(Mono<T> pass) {
        try {
            return pass.toFuture().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /**
     * Runs an action once however many threads call it, the others waiting for it; returns at once when called again
     * from within the action, or after it has run; runs it again after it failed.
     */
    private static final class Once implements Runnable {
        private final Runnable action;
        private volatile boolean done;
        private @Nullable Thread running;

        Once(Runnable action) {
            this.action = action;
        }

        @Override
        public void run() {
            if (done) {
                return;
            }
            synchronized (this) {
                if (done || running == Thread.currentThread()) {
                    return;
                }
                running = Thread.currentThread();
                try {
                    action.run();
                    done = true;
                } finally {
                    running = null;
                }
            }
        }
    }
}
