/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.ops.pca.Pca;
import io.scflux.ops.pca.PcaOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import reactor.core.publisher.Mono;

/** {@code scflux pca}: principal components as scanpy's {@code sc.pp.pca}, into obsm, varm and uns. */
@Command(
        name = "pca",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Principal component analysis as scanpy's sc.pp.pca (zero-centred): adds obsm X_pca, varm PCs "
                    + "and uns pca (params, variance, variance_ratio).",
            "Exact (covariance matrix and its eigendecomposition) up to " + Pca.EXACT_MAX_FEATURES
                    + " genes, randomized subspace iteration beyond; results do not depend on --threads."
        })
final class PcaCommand extends OpCommand {

    @Option(
            names = "--n-comps",
            paramLabel = "N",
            description = "Components to compute (default: 50, or one less than the smaller dimension if that is "
                    + "at most 50, as scanpy).")
    Integer nComps;

    @Option(
            names = "--use-highly-variable",
            negatable = true,
            description = "PCA on the genes of var highly_variable; --no-use-highly-variable on all genes (default: "
                    + "the highly variable genes when var has that column, as scanpy).")
    Boolean useHighlyVariable;

    @Option(
            names = "--mask-var",
            paramLabel = "COL",
            description = "PCA on the genes of the bool var column COL (scanpy's mask_var; instead of "
                    + "--[no-]use-highly-variable).")
    String maskVar;

    @Option(
            names = "--solver",
            paramLabel = "auto|covariance_eigh|randomized",
            defaultValue = "auto",
            description = "How components are found (default: ${DEFAULT-VALUE}).")
    PcaOptions.Solver solver;

    @Override
    Mono<AnnData> apply(AnnData data, Streaming streaming) {
        if (nComps != null && nComps < 1) {
            throw new ParameterException(spec.commandLine(), "--n-comps must be at least 1, got " + nComps);
        }
        if (maskVar != null && useHighlyVariable != null) {
            throw new ParameterException(
                    spec.commandLine(), "give --mask-var or --[no-]use-highly-variable, not " + "both");
        }
        return Pca.pca(data, new PcaOptions(nComps, useHighlyVariable, solver, maskVar), streaming);
    }

    @Override
    boolean rereadsX() {
        return true;
    }
}
