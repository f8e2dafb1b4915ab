/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import picocli.CommandLine.Command;

/** {@code scflux leiden}: clusters as scanpy's {@code sc.tl.leiden(flavor="igraph")}, into obs and uns. */
@Command(
        name = "leiden",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Clusters the neighbors' graph (run neighbors first) as scanpy's sc.tl.leiden with flavor igraph: "
                    + "Leiden's algorithm on modularity, obs leiden (labels numbered by size) and uns leiden. The "
                    + "labels depend on the graph and --random-state only."
        })
final class LeidenCommand extends OpCommand {}
