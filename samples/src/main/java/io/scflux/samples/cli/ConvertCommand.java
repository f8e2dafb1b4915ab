/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import picocli.CommandLine.Command;
import reactor.core.publisher.Mono;

/**
 * {@code scflux convert}: writes the input as it reads it, an {@code .h5ad} as anndata writes one: a Cell Ranger
 * {@code .h5} as scanpy's {@code read_10x_h5(...).write_h5ad(...)} would, or an {@code .h5ad} re-encoded (CSC as
 * CSR, a compression changed).
 */
@Command(
        name = "convert",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Writes IN as an .h5ad: a Cell Ranger .h5 as scanpy's read_10x_h5 reads it (names made unique, "
                    + "Gene Expression only unless --all-features), an .h5ad with X as CSR and the chosen compression. "
                    + "X streams from IN to OUT block by block."
        })
final class ConvertCommand extends OpCommand {

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        return Mono.just(data);
    }
}
