/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import picocli.CommandLine.Command;

/** {@code scflux neighbors}: the kNN graph as scanpy's {@code sc.pp.neighbors}, into obsp and uns. */
@Command(
        name = "neighbors",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "The neighbourhood graph as scanpy's sc.pp.neighbors, on obsm X_pca (or --use-rep): each cell's "
                    + "--n-neighbors nearest cells, obsp distances and connectivities (UMAP's fuzzy union, or "
                    + "--method gauss) and uns neighbors. X is not read; results do not depend on --threads."
        })
final class NeighborsCommand extends OpCommand {}
