/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.ops.parameter.Arguments;
import io.scflux.ops.parameter.InvalidParameterException;
import io.scflux.ops.parameter.Parameter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
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
    /**
     * Features up to which {@link Solver#AUTO} is exact: the covariance pass keeps a Gram triangle per
     * block in flight ({@code 8 p^2 / 2} bytes each, 64 MiB at 4,000), which bounds it under a 1 GiB heap.
     */
    public static final int EXACT_MAX_FEATURES = 4_000;

    public enum Solver {
        /** {@link #COVARIANCE_EIGH} up to {@link #EXACT_MAX_FEATURES} features, {@link #RANDOMIZED} beyond. */
        AUTO,
        /** Exact: the covariance matrix from one pass, and its eigendecomposition (scikit-learn's covariance_eigh). */
        COVARIANCE_EIGH,
        /** Randomized subspace iteration with a fixed seed, one pass over the data per iteration. */
        RANDOMIZED;

        /** The name of {@code svd_solver}: {@code auto}, {@code covariance_eigh}, {@code randomized}. */
        public String scanpyName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param name a name of {@link #scanpyName}, or null for scanpy's default
         * @return the solver
         */
        static Solver of(@Nullable String name) {
            return name == null ? AUTO : valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    /** scanpy's {@code n_comps}. */
    public static final Parameter<Integer> N_COMPS = Parameter.integer(
                    "n_comps",
                    null,
                    "Components to compute (default: 50, or one less than the smaller dimension if that is at most "
                            + "50, as scanpy).")
            .atLeast(1);

    /** scanpy's {@code svd_solver}, of the solvers scflux has. */
    public static final Parameter<String> SVD_SOLVER = Parameter.choice(
            "svd_solver",
            null,
            Arrays.stream(Solver.values()).map(Solver::scanpyName).toList(),
            "How components are found (default: auto, exact up to " + EXACT_MAX_FEATURES
                    + " genes, randomized beyond).");

    /** scanpy's {@code mask_var}. */
    public static final Parameter<String> MASK_VAR = Parameter.varColumn(
            "mask_var", "PCA on the genes of this bool var column (instead of use_highly_variable).");

    /** scanpy's {@code use_highly_variable}. */
    public static final Parameter<Boolean> USE_HIGHLY_VARIABLE = Parameter.bool(
            "use_highly_variable",
            null,
            "PCA on the genes of var highly_variable, or (false) on all genes (default: the highly variable genes "
                    + "when var has that column, as scanpy).");

    /** The parameters, in scanpy's order. */
    public static final List<Parameter<?>> PARAMETERS = List.of(N_COMPS, SVD_SOLVER, MASK_VAR, USE_HIGHLY_VARIABLE);

    private static final PcaOptions DEFAULT = from(Arguments.none());

    /**
     * @param arguments values of {@link #PARAMETERS}, by scanpy's names
     * @return the options they give, scanpy's defaults for the others
     * @throws InvalidParameterException naming the parameter whose value is refused
     */
    public static PcaOptions from(Arguments arguments) {
        return new PcaOptions(
                arguments.get(N_COMPS),
                arguments.get(USE_HIGHLY_VARIABLE),
                Solver.of(arguments.get(SVD_SOLVER)),
                arguments.get(MASK_VAR));
    }

    /** scanpy's defaults. */
    public static PcaOptions defaults() {
        return DEFAULT;
    }

    public PcaOptions {
        N_COMPS.check(nComps);
        if (solver == null) {
            throw new NullPointerException("solver");
        }
        if (maskVar != null && useHighlyVariable != null) {
            throw new InvalidParameterException(MASK_VAR.name(), "give mask_var or use_highly_variable, not both");
        }
    }

    /** As scanpy 1.11 wants it: no {@code mask_var}, {@code use_highly_variable} as given (null: the default). */
    public PcaOptions(Integer nComps, Boolean useHighlyVariable, Solver solver) {
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
