package io.scflux.samples;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.Log1p;
import io.scflux.ops.Log1pOptions;
import picocli.CommandLine.Command;
import reactor.core.publisher.Mono;

/** {@code scflux log1p}: scanpy's log1p ({@link Log1p}), applied as X is written. */
@Command(name = "log1p", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Replaces every value x of X with ln(1 + x), as scanpy's log1p (float32 stays float32, other "
                + "types become float64), and sets uns['log1p']."})
final class Log1pCommand extends OpCommand {

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return Log1p.log1p(data, Log1pOptions.defaults(), streaming);
    }
}
