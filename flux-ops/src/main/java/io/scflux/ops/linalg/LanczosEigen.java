/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.linalg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The leading eigenpairs of a symmetric matrix (dense, or any {@link Operator}: a sparse graph) by Lanczos with full
 * reorthogonalization: a Krylov basis grows from a fixed start vector until every wanted Ritz pair's residual is
 * below a tolerance of the largest eigenvalue ({@code 1e-12} for a dense matrix), or until the basis spans the space
 * (the full decomposition). PCA's exact solver and UMAP's spectral layout use it. It costs one matrix-vector product per basis vector,
 * {@code O(m p^2)} for {@code m} vectors where the full decomposition costs {@code O(p^3)}, and its result depends on
 * the matrix alone.
 */
public final class LanczosEigen {

    /** Residual at which a Ritz pair of a dense matrix counts as converged, relative to the largest eigenvalue. */
    private static final double TOLERANCE = 1e-12;

    private LanczosEigen() {}

    /**
     * Eigenvalues (largest first) and eigenvectors ({@code p x k}, row-major, one per column).
     *
     * @param values  the eigenvalues, largest first
     * @param vectors the eigenvectors, {@code p x k} row-major
     */
    public record Pairs(double[] values, double[] vectors) {}

    /** A symmetric linear map of {@code p}-vectors. */
    @FunctionalInterface
    public interface Operator {
        /**
         * @param x the vector
         * @return the matrix times {@code x}, a new array
         */
        double[] times(double[] x);
    }

    /**
     * @param a the symmetric {@code p x p} row-major matrix
     * @param p its order
     * @param k the pairs wanted
     * @return the {@code k} largest eigenpairs of {@code a}, converged to {@code 1e-12} of the largest eigenvalue
     */
    public static Pairs top(double[] a, int p, int k) {
        return top(x -> multiply(a, p, x), p, k, TOLERANCE);
    }

    /**
     * @param a         the symmetric map
     * @param p         its order
     * @param k         the pairs wanted
     * @param tolerance the residual at which a pair counts as converged, relative to the largest eigenvalue
     * @return the {@code k} largest eigenpairs of {@code a}
     */
    public static Pairs top(Operator a, int p, int k, double tolerance) {
        int wanted = Math.min(k, p);
        List<double[]> q = new ArrayList<>();
        double[] alpha = new double[p];
        double[] beta = new double[p];
        long seed = 0x9E3779B97F4A7C15L;
        q.add(start(p, seed));
        int done = 0;
        int target = Math.min(p, Math.max(2 * wanted + 40, 3 * wanted));
        double scale = 0;
        while (true) {
            while (done < target) {
                double[] w = a.times(q.get(done));
                alpha[done] = dot(w, q.get(done));
                orthogonalize(w, q, done + 1);
                beta[done] = Math.sqrt(dot(w, w));
                scale = Math.max(scale, Math.abs(alpha[done]) + beta[done]);
                done++;
                if (done == p) {
                    break;
                }
                double norm = beta[done - 1];
                while (norm <= 1e-10 * Math.max(scale, Double.MIN_NORMAL)) {
                    // the Krylov space is invariant: go on from a fresh vector orthogonal to it (T splits there)
                    beta[done - 1] = 0;
                    seed = seed * 6364136223846793005L + 1442695040888963407L;
                    w = start(p, seed);
                    orthogonalize(w, q, done);
                    norm = Math.sqrt(dot(w, w));
                }
                for (int i = 0; i < p; i++) {
                    w[i] /= norm;
                }
                q.add(w);
            }
            Ritz ritz = ritz(q, alpha, beta, done, p, Math.min(wanted, done));
            if (done == p || ritz.converged(tolerance * Math.max(scale, Double.MIN_NORMAL))) {
                return new Pairs(ritz.values, ritz.vectors);
            }
            target = Math.min(p, done + Math.max(20, done / 2));
        }
    }

    /** A deterministic start vector with weight on every coordinate. */
    private static double[] start(int p, long seed) {
        double[] v = new double[p];
        long s = seed;
        double norm = 0;
        for (int i = 0; i < p; i++) {
            s ^= s << 13;
            s ^= s >>> 7;
            s ^= s << 17;
            v[i] = 0.5 + (s >>> 11) * 0x1.0p-53;
            norm += v[i] * v[i];
        }
        norm = Math.sqrt(norm);
        for (int i = 0; i < p; i++) {
            v[i] /= norm;
        }
        return v;
    }

    /** Removes from {@code w} its components along the first {@code n} basis vectors, twice (for orthogonality). */
    private static void orthogonalize(double[] w, List<double[]> q, int n) {
        for (int pass = 0; pass < 2; pass++) {
            for (int j = 0; j < n; j++) {
                double[] qj = q.get(j);
                double c = dot(w, qj);
                for (int i = 0; i < w.length; i++) {
                    w[i] -= c * qj[i];
                }
            }
        }
    }

    /** Ritz pairs of the first {@code m} steps, largest first, with each pair's residual norm. */
    private record Ritz(double[] values, double[] vectors, double[] residuals) {
        boolean converged(double tolerance) {
            for (double r : residuals) {
                if (r > tolerance) {
                    return false;
                }
            }
            return true;
        }
    }

    private static Ritz ritz(List<double[]> q, double[] alpha, double[] beta, int m, int p, int k) {
        DMatrixRMaj t = new DMatrixRMaj(m, m);
        for (int i = 0; i < m; i++) {
            t.set(i, i, alpha[i]);
            if (i + 1 < m) {
                t.set(i, i + 1, beta[i]);
                t.set(i + 1, i, beta[i]);
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(m, true, true);
        if (!eig.decompose(t)) {
            throw new ArithmeticException("the " + m + " x " + m + " Lanczos matrix did not converge");
        }
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = i;
        }
        Arrays.sort(
                order,
                (x, y) -> Double.compare(
                        eig.getEigenvalue(y).getReal(), eig.getEigenvalue(x).getReal()));
        double[] values = new double[k];
        double[] vectors = new double[p * k];
        double[] residuals = new double[k];
        for (int j = 0; j < k; j++) {
            values[j] = eig.getEigenvalue(order[j]).getReal();
            double[] s = eig.getEigenVector(order[j]).data;
            residuals[j] = Math.abs(beta[m - 1] * s[m - 1]);
            for (int i = 0; i < m; i++) {
                double c = s[i];
                double[] qi = q.get(i);
                for (int r = 0; r < p; r++) {
                    vectors[r * k + j] += c * qi[r];
                }
            }
        }
        return new Ritz(values, vectors, residuals);
    }

    private static double[] multiply(double[] a, int p, double[] x) {
        double[] y = new double[p];
        for (int i = 0; i < p; i++) {
            double s = 0;
            int row = i * p;
            for (int j = 0; j < p; j++) {
                s += a[row + j] * x[j];
            }
            y[i] = s;
        }
        return y;
    }

    private static double dot(double[] x, double[] y) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += x[i] * y[i];
        }
        return s;
    }
}
