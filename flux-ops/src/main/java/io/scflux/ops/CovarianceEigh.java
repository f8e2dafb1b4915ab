package io.scflux.ops;

import io.scflux.core.BlockSource;
import io.scflux.core.backend.Streaming;
import reactor.core.publisher.Mono;

/**
 * The exact solver, scikit-learn's {@code covariance_eigh}: one pass for the Gram matrix and the column sums, then
 * the covariance matrix's leading eigenpairs, converged to rounding by {@link LanczosEigen} (a full decomposition
 * costs the cube of the feature count; this costs a few hundred products with the matrix). The total variance is
 * the covariance's trace, the sum of all its eigenvalues.
 */
final class CovarianceEigh {

    private CovarianceEigh() {
    }

    /** The {@code k} leading components of the rows of {@code x}, its one pass made by {@code pass}. */
    static Mono<Components> solve(BlockSource x, int k, Streaming streaming, ValueCheck.Pass pass) {
        int p = x.nCols();
        long n = x.nRows();
        Gram gram = new Gram(p, streaming.backend());
        return pass.reduce(x, gram).map(sums -> {
            double[] mean = new double[p];
            double[] cov = gram.covariance(sums, n, mean);
            double total = 0;
            for (int a = 0; a < p; a++) {
                total += cov[a * p + a];
            }
            LanczosEigen.Pairs top = LanczosEigen.top(cov, p, k);
            return Components.ranked(mean, top.values(), top.vectors(), k, total);
        });
    }
}
