package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.NormalizedView;
import java.util.function.IntToDoubleFunction;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code pp.normalize_total}: one pass over X computes each cell's total (two when excluding highly
 * expressed genes: the first finds them, the second sums the others), then X becomes a {@link NormalizedView} of the
 * counts that divides each cell by {@code total / target_sum} as its blocks are read; nothing is materialized. With
 * {@code keyAdded}, obs gets the factors {@code total / target_sum}, as scanpy 1.11 stores its {@code norm_factor}.
 */
public final class NormalizeTotal {

    private NormalizeTotal() {
    }

    /** Computes the totals on subscription, replaces {@code data}'s X with the normalizing view, emits {@code data}. */
    public static Mono<AnnData> normalize(AnnData data, NormalizeTotalOptions options, Streaming streaming) {
        return Mono.defer(() -> {
            BlockSource x = XMatrix.of(data);
            return totals(x, options, streaming).map(t -> {
                apply(data, x, i -> t[i], options);
                return data;
            });
        });
    }

    /** Each cell's float64 total as the options count it (without the highly expressed genes when excluding). */
    private static Mono<double[]> totals(BlockSource x, NormalizeTotalOptions options, Streaming streaming) {
        SumType type = SumType.normalizing(x.dtype());
        return options.excludeHighlyExpressed()
                ? streaming.reduce(x, new RowTotals(x.nCols(), null, options.maxFraction(), type))
                        .flatMap(flagged -> totals(x, not(flagged.flags), type, streaming))
                : totals(x, null, type, streaming);
    }

    /**
     * Makes {@code counts} normalized by cells with these float64 totals ({@code totals(i)} cell {@code i}'s) the X
     * of {@code data}, and adds the factors column if asked: what both {@link #normalize} and {@link Preprocess} end
     * with.
     */
    static void apply(AnnData data, BlockSource counts, IntToDoubleFunction totals, NormalizeTotalOptions options) {
        SumType type = SumType.normalizing(counts.dtype());
        double[] factors = SizeFactors.of(Math.toIntExact(counts.nRows()), totals, options.targetSum(), type);
        if (options.keyAdded() != null) {
            data.obs().put(options.keyAdded(), TypedSums.of(type, factors).column());
        }
        data.setX(NormalizedView.of(counts, factors, (c, s) -> totals(c, options, s)
                .map(t -> SizeFactors.of(t.length, i -> t[i], options.targetSum(),
                        SumType.normalizing(c.dtype())))));
    }

    /** Each cell's float64 total over the genes {@code keep} marks (all when null), after one pass over X. */
    private static Mono<double[]> totals(BlockSource x, boolean[] keep, SumType type, Streaming streaming) {
        RowTotals pass = new RowTotals(x.nCols(), keep, Double.NaN, type);
        return streaming.reduce(x, pass).map(sums -> sums.totals(Math.toIntExact(x.nRows())));
    }

    private static boolean[] not(boolean[] flags) {
        boolean[] keep = new boolean[flags.length];
        for (int g = 0; g < keep.length; g++) {
            keep[g] = !flags[g];
        }
        return keep;
    }
}
