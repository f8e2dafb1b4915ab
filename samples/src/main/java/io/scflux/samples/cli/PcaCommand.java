/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.ops.pca.PcaOptions;
import picocli.CommandLine.Command;

/** {@code scflux pca}: principal components as scanpy's {@code sc.pp.pca}, into obsm, varm and uns. */
@Command(
        name = "pca",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Principal component analysis as scanpy's sc.pp.pca (zero-centred): adds obsm X_pca, varm PCs "
                    + "and uns pca (params, variance, variance_ratio).",
            "Exact (covariance matrix and its eigendecomposition) up to " + PcaOptions.EXACT_MAX_FEATURES
                    + " genes, randomized subspace iteration beyond; results do not depend on --threads."
        })
final class PcaCommand extends OpCommand {

    @Override
    boolean rereadsX() {
        return true;
    }
}
