/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalize;

import io.scflux.core.BlockSource;
import io.scflux.core.Pass;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.normalized.NormalizedView;
import io.scflux.ops.values.SumType;
import io.scflux.ops.values.TypedSums;
import io.scflux.ops.values.ValueCheck;
import io.scflux.ops.values.XMatrix;
import java.util.function.IntToDoubleFunction;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code pp.normalize_total}: one pass over X computes each cell's total (two when excluding highly
 * expressed genes: the first finds them, the second sums the others), then X becomes a {@link NormalizedView} of the
 * counts that divides each cell by {@code total / target_sum} as its blocks are read; nothing is materialized. With
 * {@code keyAdded}, obs gets the factors {@code total / target_sum}, as scanpy 1.11 stores its {@code norm_factor}.
 */
public final class NormalizeTotal {

    private NormalizeTotal() {}

    /**
     * Computes the totals on subscription and emits a copy of {@code data} (left as it is) whose X is the normalizing
     * view.
     */
    public static Mono<AnnData> normalize(AnnData data, NormalizeTotalOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    BlockSource x = XMatrix.of(data);
                    AnnData out = data.copy();
                    return totals(x, options, streaming, data).map(t -> {
                        apply(out, x, i -> t[i], options, streaming);
                        return out;
                    });
                })
                .contextWrite(Pass.named("normalize"));
    }

    /**
     * Each cell's float64 total as the options count it (without the highly expressed genes when excluding: a first
     * pass flags them, a second sums the others). With {@code counts} (the container of {@code x}), the first pass
     * also warns, as scanpy, when {@code x} holds values that are not counts.
     */
    private static Mono<double[]> totals(
            BlockSource x, NormalizeTotalOptions options, Streaming streaming, @Nullable AnnData counts) {
        SumType type = SumType.normalizing(x.dtype());
        int n = Math.toIntExact(x.nRows());
        boolean exclude = options.excludeHighlyExpressed();
        RowTotals first = new RowTotals(x.nCols(), null, exclude ? options.maxFraction() : Double.NaN, type);
        Mono<RowTotals.Sums> pass = counts == null
                ? streaming.reduce(x, first)
                : ValueCheck.reduce(counts, x, first, "`normalize_total`", ValueCheck.Expect.COUNTS, streaming);
        return (exclude
                        ? pass.flatMap(flagged ->
                                streaming.reduce(x, new RowTotals(x.nCols(), not(flagged.flags), Double.NaN, type)))
                        : pass)
                .map(sums -> sums.totals(n));
    }

    /**
     * Makes {@code counts} normalized by cells with these float64 totals ({@code totals(i)} cell {@code i}'s) the X
     * of {@code data}, and adds the factors column if asked: what both {@link #normalize} and {@code Preprocess} end
     * with. A cell whose total is 0 gets scanpy's warning.
     */
    public static void apply(
            AnnData data,
            BlockSource counts,
            IntToDoubleFunction totals,
            NormalizeTotalOptions options,
            Streaming streaming) {
        double[] factors = SizeFactors.of(
                Math.toIntExact(counts.nRows()), totals, options.targetSum(), SumType.normalizing(counts.dtype()));
        view(data, counts, factors, options);
        annotate(data, counts, totals, factors, options, streaming);
    }

    /**
     * Makes {@code counts} divided by {@code factors} (filled by the time a row is read, for a pass that makes them
     * as it reads) the X of {@code data}.
     */
    public static void view(AnnData data, BlockSource counts, double[] factors, NormalizeTotalOptions options) {
        data.setX(NormalizedView.of(
                counts,
                factors,
                (c, s) -> totals(c, options, s, null)
                        .map(t -> SizeFactors.of(
                                t.length, i -> t[i], options.targetSum(), SumType.normalizing(c.dtype())))));
    }

    /**
     * Once {@code factors} are all made from {@code totals}: scanpy's warning if a cell's total is 0 (such a cell
     * stays empty), and the factors column if asked.
     */
    public static void annotate(
            AnnData data,
            BlockSource counts,
            IntToDoubleFunction totals,
            double[] factors,
            NormalizeTotalOptions options,
            Streaming streaming) {
        for (int i = 0; i < factors.length; i++) {
            if (!(totals.applyAsDouble(i) > 0)) {
                streaming.warn("Some cells have zero counts");
                break;
            }
        }
        if (options.keyAdded() != null) {
            data.obs()
                    .put(
                            options.keyAdded(),
                            TypedSums.of(SumType.normalizing(counts.dtype()), factors)
                                    .column());
        }
    }

    private static boolean[] not(boolean[] flags) {
        boolean[] keep = new boolean[flags.length];
        for (int g = 0; g < keep.length; g++) {
            keep[g] = !flags[g];
        }
        return keep;
    }
}
