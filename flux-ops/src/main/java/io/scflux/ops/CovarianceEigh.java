package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.Streaming;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import reactor.core.publisher.Mono;

/**
 * The exact solver, scikit-learn's {@code covariance_eigh}: one pass for the Gram matrix and the column sums, then
 * the covariance matrix's full symmetric eigendecomposition. Its cost grows with the cube of the feature count.
 */
final class CovarianceEigh {

    private CovarianceEigh() {
    }

    /** The {@code k} leading components of the rows of {@code x}. */
    static Mono<Components> solve(BlockSource x, int k, Streaming streaming) {
        int p = x.nCols();
        long n = x.nRows();
        Gram gram = new Gram(p);
        return streaming.reduce(x, gram).map(sums -> {
            double[] mean = new double[p];
            DMatrixRMaj cov = DMatrixRMaj.wrap(p, p, gram.covariance(sums, n, mean));
            EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(p, true, true);
            if (!eig.decompose(cov)) {
                throw new ArithmeticException("the eigendecomposition of the " + p + " x " + p
                        + " covariance matrix did not converge");
            }
            double[] values = new double[p];
            double[] vectors = new double[p * p];
            double total = 0;
            for (int j = 0; j < p; j++) {
                values[j] = eig.getEigenvalue(j).getReal();
                total += Math.max(0, values[j]);
                DMatrixRMaj v = eig.getEigenVector(j);
                for (int a = 0; a < p; a++) {
                    vectors[a * p + j] = v.data[a];
                }
            }
            return Components.ranked(mean, values, vectors, k, total);
        });
    }
}
