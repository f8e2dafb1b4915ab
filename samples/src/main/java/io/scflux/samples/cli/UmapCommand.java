/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import picocli.CommandLine.Command;

/** {@code scflux umap}: the map of scanpy's {@code sc.tl.umap}, into obsm and uns. */
@Command(
        name = "umap",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Lays out the neighbors' graph (run neighbors first) as scanpy's sc.tl.umap (umap-learn's spectral start "
                    + "and stochastic gradient descent): obsm X_umap and uns umap. The map depends on the graph and "
                    + "--random-state only."
        })
final class UmapCommand extends OpCommand {}
