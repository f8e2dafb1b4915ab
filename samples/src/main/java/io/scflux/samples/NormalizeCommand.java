package io.scflux.samples;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.NormalizeTotal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import reactor.core.publisher.Mono;

/** {@code scflux normalize}: scanpy's normalize_total ({@link NormalizeTotal}). */
@Command(name = "normalize", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Scales each cell to the same total, as scanpy's normalize_total: one pass over X computes "
                + "the cell totals, the output X holds the counts divided by total / target sum (float32)."})
final class NormalizeCommand extends OpCommand {

    @Mixin
    private TargetSumOption target;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return NormalizeTotal.normalize(data, target.options(), streaming);
    }
}
