package io.scflux.ops;

/**
 * The parameters of {@link Pca#pca}, as scanpy's {@code sc.pp.pca(n_comps, use_highly_variable, svd_solver)} with
 * {@code zero_center=True}. A null {@code nComps} is scanpy's default (50, or one less than the smaller dimension when
 * that is at most 50); a null {@code useHighlyVariable} is scanpy's default (the genes of {@code var["highly_variable"]}
 * when the column exists, else all).
 */
public record PcaOptions(Integer nComps, Boolean useHighlyVariable, Solver solver) {

    /** How the components are found. */
    public enum Solver {
        /** {@link #COVARIANCE_EIGH} up to {@link Pca#EXACT_MAX_FEATURES} features, {@link #RANDOMIZED} beyond. */
        AUTO,
        /** Exact: the covariance matrix from one pass, and its eigendecomposition (scikit-learn's covariance_eigh). */
        COVARIANCE_EIGH,
        /** Randomized subspace iteration with a fixed seed, one pass over the data per iteration. */
        RANDOMIZED
    }

    private static final PcaOptions DEFAULT = new PcaOptions(null, null, Solver.AUTO);

    /** scanpy's defaults. */
    public static PcaOptions defaults() {
        return DEFAULT;
    }

    public PcaOptions {
        if (nComps != null && nComps < 1) {
            throw new IllegalArgumentException("n_comps must be at least 1, got " + nComps);
        }
        if (solver == null) {
            throw new NullPointerException("solver");
        }
    }

    public PcaOptions withNComps(int n) {
        return new PcaOptions(n, useHighlyVariable, solver);
    }

    public PcaOptions withUseHighlyVariable(Boolean use) {
        return new PcaOptions(nComps, use, solver);
    }

    public PcaOptions withSolver(Solver s) {
        return new PcaOptions(nComps, useHighlyVariable, s);
    }
}
