/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.hvg;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;

/**
 * Cleveland's local regression of {@code y} on one predictor {@code x}, computed as netlib's dloess (and so R's
 * {@code loess} and scikit-misc's {@code skmisc.loess}) computes it with its defaults: family gaussian, tricube
 * weights over the {@code floor(n * span)} nearest points, and surface "interpolate": the local fits are made only
 * at the vertices of a k-d tree over {@code x} (value and slope), and the surface between two vertices is their
 * cubic Hermite interpolant. Seurat's vst (scanpy's {@code seurat_v3} flavor) ranks genes by this fit, so the tree
 * has to be dloess's to select the same genes.
 */
final class Loess {

    /** dloess's default {@code cell}: a tree cell holds at most {@code floor(n * span * cell)} points. */
    private static final double CELL = 0.2;

    private static final double MACHINE_EPSILON = Math.ulp(1.0);

    private final double[] x;
    private final double[] y;
    private final double span;
    private final int degree;
    private final int nf;

    private Loess(double[] x, double[] y, double span, int degree) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x has " + x.length + " values, y " + y.length);
        }
        if (degree < 0 || degree > 2) {
            throw new IllegalArgumentException("loess degree must be 0, 1 or 2, got " + degree);
        }
        if (!(span > 0)) {
            throw new IllegalArgumentException("loess span must be positive, got " + span);
        }
        this.x = x;
        this.y = y;
        this.span = span;
        this.degree = degree;
        int n = x.length;
        this.nf = (int) Math.min(n, Math.floor(n * span + 1e-5));
        if (nf <= 0) {
            throw new IllegalArgumentException("loess span is too small for " + n + " points");
        }
        if (degree + 1 > nf - 1) {
            throw new IllegalArgumentException("loess span too small: " + nf + " of " + n
                    + " points in a neighbourhood are too few for degree " + degree);
        }
    }

    /**
     * The surface "interpolate" (dloess's default) through {@code (x, y)}; its values at {@code x} are the fitted
     * values. {@code span} is the fraction of the points in each local fit, {@code degree} that of the local
     * polynomials (0, 1 or 2).
     */
    static Surface interpolate(double[] x, double[] y, double span, int degree) {
        return new Loess(x, y, span, degree).tree();
    }

    /** The local fits at {@code at}, surface "direct": one local regression per point, no tree. */
    static double[] direct(double[] x, double[] y, double span, int degree, double[] at) {
        Loess loess = new Loess(x, y, span, degree);
        double[] out = new double[at.length];
        double[] fit = new double[2];
        double[] dist = new double[x.length];
        for (int i = 0; i < at.length; i++) {
            loess.localFit(at[i], dist, fit);
            out[i] = fit[0];
        }
        return out;
    }

    /** dloess's k-d tree (ehg126, ehg124, ehg129) with the local fit at every vertex (ehg139). */
    private Surface tree() {
        int n = x.length;
        int maxCells = Math.max(200, n);
        int maxVertices = maxCells;
        int cellPoints = (int) Math.floor(n * (span * CELL));
        double[] sorted = x.clone();
        Arrays.sort(sorted);

        Surface t = new Surface(maxCells, maxVertices);
        double lo = sorted[0];
        double hi = sorted[n - 1];
        double margin = 0.005 * Math.max(hi - lo, 1e-10 * Math.max(Math.abs(lo), Math.abs(hi)) + 1e-30);
        t.vertex[0] = lo - margin;
        t.vertex[1] = hi + margin;
        t.nVertices = 2;
        t.lower[0] = 0;
        t.upper[0] = 1;
        t.from[0] = 0;
        t.to[0] = n - 1;
        t.nCells = 1;
        for (int p = 0; p < t.nCells; p++) {
            int l = t.from[p];
            int u = t.to[p];
            double width = Math.abs(t.vertex[t.upper[p]] - t.vertex[t.lower[p]]);
            boolean leaf =
                    u - l + 1 <= cellPoints || width <= 0 || maxCells < t.nCells + 2 || maxVertices < t.nVertices + 1.0;
            int m = (l + u) / 2;
            if (!leaf) {
                // all ties go to the upper son: look for the nearest split m' with sorted[m'] < sorted[m' + 1],
                // trying m, m + 1, m - 1, m + 2, ... and giving up at the first one outside [l, u)
                for (int offset = 0; m + offset < u && m + offset >= l; ) {
                    if (sorted[m + offset] != sorted[m + offset + 1]) {
                        m += offset;
                        break;
                    }
                    offset = -offset;
                    if (offset >= 0) {
                        offset++;
                    }
                }
                leaf = t.vertex[t.lower[p]] == sorted[m] || t.vertex[t.upper[p]] == sorted[m];
            }
            if (!leaf) {
                t.split(p, sorted[m], l, m, u);
            }
        }
        double[] fit = new double[2];
        double[] dist = new double[n];
        for (int v = 0; v < t.nVertices; v++) {
            localFit(t.vertex[v], dist, fit);
            t.value[v] = fit[0];
            t.slope[v] = fit[1];
        }
        return t;
    }

    /**
     * The local polynomial at {@code q} (dloess's ehg127): tricube weights over the {@code nf} nearest points, the
     * weighted design matrix with equilibrated columns, and its least-squares solution through the singular value
     * decomposition with singular values below {@code 100 eps} of the largest dropped. Writes value and slope.
     */
    private void localFit(double q, double[] dist, double[] out) {
        int n = x.length;
        for (int i = 0; i < n; i++) {
            double d = x[i] - q;
            dist[i] = d * d;
        }
        double[] nearest = dist.clone();
        double rho = select(nearest, nf - 1) * Math.max(1.0, span);
        if (rho <= 0) {
            throw new IllegalArgumentException("loess: zero-width neighbourhood at " + q + "; make span bigger");
        }
        int k = degree + 1;
        int rows = 0;
        for (int i = 0; i < n; i++) {
            if (dist[i] < rho) {
                rows++;
            }
        }
        // points at distance rho (and beyond) have weight 0 and leave the solution unchanged
        if (rows == 0) {
            throw new IllegalArgumentException(
                    "loess: all data on the boundary of the neighbourhood at " + q + "; make span bigger");
        }
        double[][] b = new double[k][rows];
        double[] eta = new double[rows];
        int r = 0;
        for (int i = 0; i < n; i++) {
            if (dist[i] < rho) {
                double u = Math.sqrt(dist[i] / rho);
                double c = 1 - u * u * u;
                double w = Math.sqrt(c * c * c);
                double d = x[i] - q;
                b[0][r] = w;
                if (k > 1) {
                    b[1][r] = w * d;
                }
                if (k > 2) {
                    b[2][r] = w * (d * d);
                }
                eta[r++] = w * y[i];
            }
        }
        double[] norm = new double[k];
        for (int j = 0; j < k; j++) {
            double s = 0;
            for (int i = 0; i < rows; i++) {
                s += b[j][i] * b[j][i];
            }
            s = Math.sqrt(s);
            norm[j] = s > 0 ? s : 1;
            if (s > 0) {
                for (int i = 0; i < rows; i++) {
                    b[j][i] /= s;
                }
            }
        }
        double[] coef = leastSquares(b, eta, rows, k);
        out[0] = coef[0] / norm[0];
        out[1] = k > 1 ? coef[1] / norm[1] : 0;
    }

    /**
     * Solves {@code min |B c - eta|} for the {@code rows x k} matrix {@code B} (by columns): Householder QR, then the
     * pseudo-inverse of R from its SVD, dropping singular values at or below {@code 100 eps} of the largest.
     */
    private static double[] leastSquares(double[][] b, double[] eta, int rows, int k) {
        for (int j = 0; j < k && j < rows; j++) {
            double[] col = b[j];
            double norm = 0;
            for (int i = j; i < rows; i++) {
                norm = Math.hypot(norm, col[i]);
            }
            if (norm == 0) {
                continue;
            }
            double alpha = col[j] > 0 ? -norm : norm;
            double v0 = col[j] - alpha;
            // reflector H = I - tau v v', v = (1, col[j+1..] / v0)
            double tau = -v0 / alpha;
            for (int i = j + 1; i < rows; i++) {
                col[i] /= v0;
            }
            col[j] = alpha;
            for (int jj = j + 1; jj < k; jj++) {
                applyReflector(col, tau, b[jj], j, rows);
            }
            applyReflector(col, tau, eta, j, rows);
        }
        DMatrixRMaj r = new DMatrixRMaj(k, k);
        for (int i = 0; i < k; i++) {
            for (int j = i; j < k; j++) {
                r.set(i, j, i < rows ? b[j][i] : 0);
            }
        }
        SingularValueDecomposition_F64<DMatrixRMaj> svd = DecompositionFactory_DDRM.svd(k, k, true, true, false);
        if (!svd.decompose(r)) {
            throw new IllegalStateException("loess: singular value decomposition failed");
        }
        double[] sigma = svd.getSingularValues();
        DMatrixRMaj uMat = svd.getU(null, false);
        DMatrixRMaj vMat = svd.getV(null, false);
        double largest = 0;
        for (int j = 0; j < k; j++) {
            largest = Math.max(largest, sigma[j]);
        }
        double tol = largest * (100 * MACHINE_EPSILON);
        double[] coef = new double[k];
        for (int j = 0; j < k; j++) {
            if (sigma[j] > tol) {
                double g = 0;
                for (int i = 0; i < k; i++) {
                    g += uMat.get(i, j) * (i < rows ? eta[i] : 0);
                }
                g /= sigma[j];
                for (int i = 0; i < k; i++) {
                    coef[i] += vMat.get(i, j) * g;
                }
            }
        }
        return coef;
    }

    private static void applyReflector(double[] v, double tau, double[] target, int j, int rows) {
        double s = target[j];
        for (int i = j + 1; i < rows; i++) {
            s += v[i] * target[i];
        }
        s *= tau;
        target[j] -= s;
        for (int i = j + 1; i < rows; i++) {
            target[i] -= s * v[i];
        }
    }

    /** The {@code k}-th smallest (0-based) of {@code a}, reordering {@code a}. */
    private static double select(double[] a, int k) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo < hi) {
            double pivot = a[(lo + hi) >>> 1];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (pivot < a[j]) {
                    j--;
                }
                if (i <= j) {
                    double t = a[i];
                    a[i++] = a[j];
                    a[j--] = t;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return a[k];
            }
        }
        return a[k];
    }

    /**
     * A fitted surface: a one-dimensional k-d tree whose cell {@code p} spans vertices {@code lower[p]} to
     * {@code upper[p]}; an inner cell splits at {@code split[p]} (points {@code <=} go to {@code left[p]}, the others
     * to {@code left[p] + 1}); every vertex carries the local fit's value and slope.
     */
    static final class Surface {
        final int[] lower;
        final int[] upper;
        final int[] from;
        final int[] to;
        final int[] left;
        final double[] split;
        final double[] vertex;
        final double[] value;
        final double[] slope;
        int nCells;
        int nVertices;

        private Surface(int maxCells, int maxVertices) {
            lower = new int[maxCells];
            upper = new int[maxCells];
            from = new int[maxCells];
            to = new int[maxCells];
            left = new int[maxCells];
            split = new double[maxCells];
            vertex = new double[maxVertices];
            value = new double[maxVertices];
            slope = new double[maxVertices];
        }

        /** Splits cell {@code p} (sorted points {@code l..u}) at {@code at} = the point {@code m}. */
        private void split(int p, double at, int l, int m, int u) {
            int v = 0;
            while (v < nVertices && vertex[v] != at) {
                v++;
            }
            if (v == nVertices) {
                vertex[nVertices++] = at;
            }
            split[p] = at;
            left[p] = nCells;
            lower[nCells] = lower[p];
            upper[nCells] = v;
            from[nCells] = l;
            to[nCells++] = m;
            lower[nCells] = v;
            upper[nCells] = upper[p];
            from[nCells] = m + 1;
            to[nCells++] = u;
        }

        /**
         * The surface at each of {@code z}, within the fitted range: the cubic Hermite interpolant of the values and
         * slopes at the two vertices of the leaf cell holding it (ehg128).
         */
        double[] at(double[] z) {
            double[] out = new double[z.length];
            for (int i = 0; i < z.length; i++) {
                int p = 0;
                while (left[p] != 0) {
                    p = z[i] <= split[p] ? left[p] : left[p] + 1;
                }
                int ll = lower[p];
                int ur = upper[p];
                double width = vertex[ur] - vertex[ll];
                double h = (z[i] - vertex[ll]) / width;
                if (!(h >= -0.001 && h <= 1.001)) {
                    throw new IllegalArgumentException("loess: " + z[i] + " is outside the fitted range");
                }
                double phi0 = (1 - h) * (1 - h) * (1 + 2 * h);
                double phi1 = h * h * (3 - 2 * h);
                double psi0 = h * ((1 - h) * (1 - h));
                double psi1 = h * h * (h - 1);
                out[i] = phi0 * value[ll] + phi1 * value[ur] + (psi0 * slope[ll] + psi1 * slope[ur]) * width;
            }
            return out;
        }
    }
}
