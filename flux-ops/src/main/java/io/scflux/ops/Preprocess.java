package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.backend.Streaming;
import reactor.core.publisher.Mono;

/**
 * QC, normalize_total and log1p fused: ONE pass over X computes every {@link QcMetrics} column and, reusing each
 * cell's total as its normalization total, the size factors; X then becomes one lazy stage over the counts
 * (normalize, then log1p). Without a target sum the median is taken from the totals that pass collected, so it needs
 * no second pass. The columns equal {@link QcMetrics}'s and X equals {@link NormalizeTotal} then {@link Log1p}.
 */
public final class Preprocess {

    private Preprocess() {
    }

    /**
     * Runs the pass on subscription and emits a copy of {@code data} (left as it is) with the QC columns and X the
     * fused view.
     */
    public static Mono<AnnData> preprocess(AnnData data, PreprocessOptions options, Streaming streaming) {
        return Mono.defer(() -> {
            AnnData out = data.copy();
            return QcMetrics.run(out, options.qc(), streaming).map(pass -> {
                BlockSource counts = out.x();
                NormalizeTotal.apply(out, counts, pass.totals::get, options.normalize(), streaming);
                Log1p.apply(out, options.log1p(), streaming);
                return out;
            });
        });
    }
}
