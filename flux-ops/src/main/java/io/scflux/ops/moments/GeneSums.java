/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.moments;

import io.scflux.core.Backend;
import io.scflux.core.HostBackend;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Per-gene sums over the cells of each group (batch), in one pass: the sum of the values, the sum of their squares and
 * the number of positive values (of non-zero ones for {@link #nonzeroValues}), all genes of a group side by side
 * ({@code [group * nGenes + gene]}). The values are the stored ones, their {@code expm1} (seurat's dispersions are
 * computed on the un-logged data), or the stored ones clipped at a per-group, per-gene ceiling (seurat_v3's second
 * pass).
 *
 * <p>The arithmetic is scanpy's: sums in float64 of float32 values; squares of the float32 values taken in float32
 * (its numba kernel multiplies the float32 data), except the clipped values, which scanpy squares in float64.
 *
 * <p>On a device backend, the sums of the values of a single group are its {@link ColumnSumsKernel}.
 *
 * <p>Public because HVG and rank_genes_groups, each in its own package, both reduce X to these sums.
 */
public final class GeneSums implements Reducer<GeneSums.Sums> {

    /** What is summed for a stored value {@code x}. */
    private enum Kind {
        VALUES,
        EXPM1,
        CLIPPED
    }

    private final Kind kind;
    /** Whether {@code positive} counts the values that are not zero (negative ones too). */
    private final boolean nonzero;

    private final int[] groupOfRow;
    private final int nGroups;
    private final int nGenes;
    private final float scale;
    private final double @Nullable [] ceiling;
    private final Backend backend;

    private GeneSums(
            Kind kind,
            boolean nonzero,
            int[] groupOfRow,
            int nGroups,
            int nGenes,
            float scale,
            double @Nullable [] ceiling,
            Backend backend) {
        this.kind = kind;
        this.nonzero = nonzero;
        this.groupOfRow = groupOfRow;
        this.nGroups = nGroups;
        this.nGenes = nGenes;
        this.scale = scale;
        this.ceiling = ceiling;
        this.backend = backend;
    }

    /** Sums of the values; {@code groupOfRow[cell]} in {@code [0, nGroups)}. */
    public static GeneSums values(int[] groupOfRow, int nGroups, int nGenes, Backend backend) {
        return new GeneSums(Kind.VALUES, false, groupOfRow, nGroups, nGenes, 1f, null, backend);
    }

    /**
     * Sums of the values, counting the values that are not zero (what scanpy's {@code getnnz} counts once zeros are
     * eliminated); on the host.
     */
    public static GeneSums nonzeroValues(int[] groupOfRow, int nGroups, int nGenes) {
        return new GeneSums(Kind.VALUES, true, groupOfRow, nGroups, nGenes, 1f, null, HostBackend.INSTANCE);
    }

    /** Sums of {@code expm1(x * scale)} in float32 (scale: the log base's {@code ln}, 1 for natural logs). */
    public static GeneSums expm1(int[] groupOfRow, int nGroups, int nGenes, float scale) {
        return new GeneSums(Kind.EXPM1, false, groupOfRow, nGroups, nGenes, scale, null, HostBackend.INSTANCE);
    }

    /** Sums of {@code min(x, ceiling[group * nGenes + gene])}. */
    public static GeneSums clipped(int[] groupOfRow, int nGroups, int nGenes, double[] ceiling) {
        return new GeneSums(Kind.CLIPPED, false, groupOfRow, nGroups, nGenes, 1f, ceiling, HostBackend.INSTANCE);
    }

    @Override
    public Sums identity() {
        return new Sums(nGroups, nGenes);
    }

    @Override
    public Sums fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public Sums foldInto(Sums s, RowBlock block) {
        if (kind == Kind.VALUES
                && nGroups == 1
                && backend.kernel(ColumnSumsKernel.class).isPresent()) {
            return onDevice(block, s);
        }
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        double[] sum = s.sum;
        double[] sumSq = s.sumSq;
        int[] positive = s.positive;
        int first = Math.toIntExact(block.rowStart());
        Expm1 expm1 = kind == Kind.EXPM1 ? new Expm1() : null;
        for (int r = 0; r < block.nRows(); r++) {
            int group = groupOfRow[first + r];
            s.cells[group]++;
            int base = group * nGenes;
            int end = indptr[r + 1];
            switch (kind) {
                case VALUES:
                    for (int k = indptr[r]; k < end; k++) {
                        float v = values[k];
                        int g = base + indices[k];
                        sum[g] += v;
                        sumSq[g] += v * v;
                        if (v > 0 || (nonzero && v != 0)) {
                            positive[g]++;
                        }
                    }
                    break;
                case EXPM1:
                    Expm1 e = Objects.requireNonNull(expm1, "made for EXPM1 above");
                    for (int k = indptr[r]; k < end; k++) {
                        float x = values[k];
                        float v = e.apply(x * scale);
                        int g = base + indices[k];
                        sum[g] += v;
                        sumSq[g] += v * v;
                        if (x > 0) {
                            positive[g]++;
                        }
                    }
                    break;
                default:
                    double[] clip = Objects.requireNonNull(ceiling, "clipped sums have a ceiling");
                    for (int k = indptr[r]; k < end; k++) {
                        float x = values[k];
                        int g = base + indices[k];
                        double v = Math.min(x, clip[g]);
                        sum[g] += v;
                        sumSq[g] += v * v;
                        if (x > 0) {
                            positive[g]++;
                        }
                    }
                    break;
            }
        }
        return s;
    }

    /** A single group's sums by the device kernel; only the positive counts are taken here. */
    private Sums onDevice(RowBlock block, Sums s) {
        HostColumnSums.on(backend).columnSums(block, true, s.sum, s.sumSq);
        s.cells[0] += block.nRows();
        int[] indices = block.indices();
        float[] values = block.values();
        for (int k = 0; k < block.nnz(); k++) {
            if (values[k] > 0) {
                s.positive[indices[k]]++;
            }
        }
        return s;
    }

    @Override
    public Sums merge(Sums earlier, Sums later) {
        for (int i = 0; i < earlier.sum.length; i++) {
            earlier.sum[i] += later.sum[i];
            earlier.sumSq[i] += later.sumSq[i];
            earlier.positive[i] += later.positive[i];
        }
        for (int g = 0; g < earlier.cells.length; g++) {
            earlier.cells[g] += later.cells[g];
        }
        return earlier;
    }

    /** The sums of one run of blocks; {@code cells[group]} counts the group's rows. */
    public static final class Sums implements java.io.Serializable {
        public final int nGenes;
        public final long[] cells;
        public final double[] sum;
        public final double[] sumSq;
        public final int[] positive;

        Sums(int nGroups, int nGenes) {
            this.nGenes = nGenes;
            this.cells = new long[nGroups];
            this.sum = new double[nGroups * nGenes];
            this.sumSq = new double[nGroups * nGenes];
            this.positive = new int[nGroups * nGenes];
        }

        /** The mean of the gene's values over the group's cells. */
        public double mean(int group, int gene) {
            return sum[group * nGenes + gene] / cells[group];
        }

        /** The variance (ddof 1) as scanpy's mean_var takes it: {@code (E[x^2] - E[x]^2) * n / (n - 1)}. */
        public double variance(int group, int gene) {
            long n = cells[group];
            double mean = mean(group, gene);
            double var = sumSq[group * nGenes + gene] / n - mean * mean;
            return n == 1 ? var : var * (n / (double) (n - 1));
        }

        /** All groups as one, added in group order. */
        public Sums total() {
            Sums t = new Sums(1, nGenes);
            for (int b = 0; b < cells.length; b++) {
                t.cells[0] += cells[b];
                for (int g = 0; g < nGenes; g++) {
                    t.sum[g] += sum[b * nGenes + g];
                    t.sumSq[g] += sumSq[b * nGenes + g];
                    t.positive[g] += positive[b * nGenes + g];
                }
            }
            return t;
        }
    }
}
