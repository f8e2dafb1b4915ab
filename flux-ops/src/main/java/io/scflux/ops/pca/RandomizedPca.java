/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Streaming;
import io.scflux.ops.moments.ColumnMoments;
import io.scflux.ops.values.ValueCheck;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.ejml.interfaces.decomposition.QRDecomposition;
import reactor.core.publisher.Mono;

/**
 * The solver for many features (Halko et al.'s randomized range finder with power iterations): block subspace
 * iteration on the covariance matrix, one pass over the blocks per iteration, each followed by re-orthonormalization
 * and a Rayleigh-Ritz step, from a fixed-seed Gaussian start. It stops when every wanted Ritz pair's residual
 * {@code ||C u - theta u||} is below {@link #TOLERANCE} times the largest Ritz value, or after
 * {@link #MAX_ITERATIONS} passes; both depend on the data only, so the result is reproducible.
 */
final class RandomizedPca {

    /** Seed of the starting block. */
    static final long SEED = 0;

    /** Residual bound, relative to the largest variance, under which a Ritz pair has converged. */
    static final double TOLERANCE = 1e-6;

    /** Most passes over the data after the one for the means. */
    static final int MAX_ITERATIONS = 30;

    private RandomizedPca() {}

    /** Vectors iterated for {@code k} components: {@code k} plus as many again plus 10, at most all features. */
    private static int blockSize(int k, int p) {
        return Math.min(p, 2 * k + 10);
    }

    /** The {@code k} leading components of the rows of {@code x}, the first of its passes made by {@code first}. */
    static Mono<Components> solve(BlockSource x, int k, Streaming streaming, ValueCheck.Pass first) {
        int p = x.nCols();
        long n = x.nRows();
        ColumnMoments moments = new ColumnMoments(p, x.dtype() == DType.FLOAT32, streaming.backend());
        return first.reduce(x, moments).flatMap(sums -> {
            double[] mean = sums.means(n);
            double total = 0;
            for (double v : sums.variances(n)) {
                total += v;
            }
            int l = blockSize(k, p);
            DMatrixRMaj start = new DMatrixRMaj(p, l);
            Random random = new Random(SEED);
            for (int i = 0; i < start.data.length; i++) {
                start.data[i] = random.nextGaussian();
            }
            return iterate(x, streaming, mean, k, total, orthonormal(start), 1);
        });
    }

    private static Mono<Components> iterate(
            BlockSource x, Streaming streaming, double[] mean, int k, double total, DMatrixRMaj q, int iteration) {
        CovarianceProduct product = new CovarianceProduct(q.data, q.numCols, mean);
        return streaming.reduce(x, product).flatMap(sums -> {
            DMatrixRMaj z = DMatrixRMaj.wrap(q.numRows, q.numCols, product.product(sums, x.nRows()));
            RitzPairs ritz = RitzPairs.of(q, z);
            if (ritz.converged(k) || iteration == MAX_ITERATIONS) {
                return Mono.just(Components.ranked(mean, ritz.values(), ritz.vectors().data, k, total));
            }
            return iterate(x, streaming, mean, k, total, orthonormal(z), iteration + 1);
        });
    }

    /** An orthonormal basis of the columns of {@code m} (thin Householder QR). */
    private static DMatrixRMaj orthonormal(DMatrixRMaj m) {
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(m.numRows, m.numCols);
        if (!qr.decompose(m.copy())) {
            throw new ArithmeticException("QR decomposition failed");
        }
        return qr.getQ(null, true);
    }

    /**
     * The Rayleigh-Ritz approximations from the basis {@code Q} and {@code Z = C Q}, by decreasing value: the
     * eigenpairs {@code (theta, w)} of {@code Q^T Z}, the vectors {@code u = Q w} and the residuals
     * {@code ||Z w - theta u||}.
     */
    private record RitzPairs(double[] values, DMatrixRMaj vectors, double[] residuals) {

        static RitzPairs of(DMatrixRMaj q, DMatrixRMaj z) {
            int l = q.numCols;
            DMatrixRMaj t = new DMatrixRMaj(l, l);
            CommonOps_DDRM.multTransA(q, z, t);
            DMatrixRMaj sym = new DMatrixRMaj(l, l);
            CommonOps_DDRM.transpose(t, sym);
            CommonOps_DDRM.add(0.5, t, 0.5, sym, sym);
            EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(l, true, true);
            if (!eig.decompose(sym)) {
                throw new ArithmeticException("the Rayleigh-Ritz eigendecomposition did not converge");
            }
            int[] order = IntStream.range(0, l)
                    .boxed()
                    .sorted(Comparator.comparingDouble(
                            (Integer j) -> -eig.getEigenvalue(j).getReal()))
                    .mapToInt(Integer::intValue)
                    .toArray();
            DMatrixRMaj w = new DMatrixRMaj(l, l);
            double[] values = new double[l];
            for (int j = 0; j < l; j++) {
                values[j] = eig.getEigenvalue(order[j]).getReal();
                DMatrixRMaj v = eig.getEigenVector(order[j]);
                for (int i = 0; i < l; i++) {
                    w.set(i, j, v.data[i]);
                }
            }
            DMatrixRMaj u = new DMatrixRMaj(q.numRows, l);
            CommonOps_DDRM.mult(q, w, u);
            DMatrixRMaj cu = new DMatrixRMaj(q.numRows, l);
            CommonOps_DDRM.mult(z, w, cu);
            double[] residuals = new double[l];
            for (int j = 0; j < l; j++) {
                double s = 0;
                for (int a = 0; a < q.numRows; a++) {
                    double d = cu.get(a, j) - values[j] * u.get(a, j);
                    s += d * d;
                }
                residuals[j] = Math.sqrt(s);
            }
            return new RitzPairs(values, u, residuals);
        }

        /** Whether the {@code k} leading pairs have converged. */
        boolean converged(int k) {
            double scale = Math.max(values[0], Double.MIN_NORMAL);
            for (int j = 0; j < k; j++) {
                if (residuals[j] > TOLERANCE * scale) {
                    return false;
                }
            }
            return true;
        }
    }
}
