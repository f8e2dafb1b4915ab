/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * The parameters of {@link Pca#pca}, as scanpy's {@code sc.pp.pca(n_comps, use_highly_variable, svd_solver,
 * mask_var)} with {@code zero_center=True}. A null {@code nComps} is scanpy's default (50, or one less than the
 * smaller dimension when that is at most 50); {@code maskVar} names the bool var column of the genes to use; without
 * it, a null {@code useHighlyVariable} is scanpy's default (the genes of {@code var["highly_variable"]} when the column
 * exists, else all).
 */
public record PcaOptions(
        @Nullable Integer nComps,
        @Nullable Boolean useHighlyVariable,
        Solver solver,
        @Nullable String maskVar) {

    /** How the components are found. */
    public enum Solver {
        /** {@link #COVARIANCE_EIGH} up to {@link Pca#EXACT_MAX_FEATURES} features, {@link #RANDOMIZED} beyond. */
        AUTO,
        /** Exact: the covariance matrix from one pass, and its eigendecomposition (scikit-learn's covariance_eigh). */
        COVARIANCE_EIGH,
        /** Randomized subspace iteration with a fixed seed, one pass over the data per iteration. */
        RANDOMIZED
    }

    private static final PcaOptions DEFAULT = new PcaOptions(null, null, Solver.AUTO, null);

    /** scanpy's defaults. */
    public static PcaOptions defaults() {
        return DEFAULT;
    }

    public PcaOptions {
        if (nComps != null && nComps < 1) {
            throw new InvalidOptionException("n_comps must be at least 1, got " + nComps);
        }
        if (solver == null) {
            throw new NullPointerException("solver");
        }
        if (maskVar != null && useHighlyVariable != null) {
            throw new InvalidOptionException("give mask_var or use_highly_variable, not both");
        }
    }

    /** As scanpy 1.11 wants it: no {@code mask_var}, {@code use_highly_variable} as given (null: the default). */
    public PcaOptions(Integer nComps, @Nullable Boolean useHighlyVariable, Solver solver) {
        this(nComps, useHighlyVariable, solver, null);
    }

    public PcaOptions withNComps(int n) {
        return new PcaOptions(n, useHighlyVariable, solver, maskVar);
    }

    public PcaOptions withUseHighlyVariable(Boolean use) {
        return new PcaOptions(nComps, use, solver, null);
    }

    /** The genes of the bool var column {@code column} (scanpy's {@code mask_var}); null: scanpy's default. */
    public PcaOptions withMaskVar(String column) {
        return new PcaOptions(nComps, null, solver, column);
    }

    public PcaOptions withSolver(Solver s) {
        return new PcaOptions(nComps, useHighlyVariable, s, maskVar);
    }
}
