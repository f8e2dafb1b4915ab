/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.normalized;

import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import org.jspecify.annotations.Nullable;

/**
 * Scales each entry by its gene: {@code (x - mean) / std} when centring, {@code x / std} otherwise, clipped at the
 * maximum. Centring fills every row (a stored zero becomes {@code -mean / std}); otherwise the pattern is kept.
 * When the data are a float32 array, the centred value is rounded to float32 before the division, as numpy's in-place
 * float32 arithmetic does; otherwise both steps are one float64 computation (scanpy's result is float64).
 */
public final class ColumnScale implements Stage {

    private final double[] mean;
    private final double[] std;
    private final boolean zeroCenter;
    private final double max;
    private final boolean float32Steps;
    /** What a missing (zero) entry of each column becomes, when centring. */
    private final float[] zeros;

    private final int[] columns;

    /**
     * Scaling of each column {@code c} by {@code mean[c]} and {@code std[c]}, centred when {@code zeroCenter}, clipped
     * at {@code maxValue} (null for no clipping); {@code float32Steps} rounds the centred value to float32 first, as
     * numpy's in-place arithmetic on a float32 array does.
     */
    public ColumnScale(
            double[] mean, double[] std, boolean zeroCenter, @Nullable Double maxValue, boolean float32Steps) {
        this.mean = mean;
        this.std = std;
        this.zeroCenter = zeroCenter;
        this.max = maxValue == null ? Double.POSITIVE_INFINITY : maxValue;
        this.float32Steps = float32Steps;
        int p = mean.length;
        zeros = new float[p];
        columns = new int[p];
        for (int c = 0; c < p; c++) {
            zeros[c] = scaled(c, 0);
            columns[c] = c;
        }
    }

    /** Whether centring fills every row. */
    public boolean fillsRows() {
        return zeroCenter;
    }

    /** The same scaling of the columns {@code cols} only, in that order. */
    ColumnScale select(int[] cols) {
        double[] m = new double[cols.length];
        double[] s = new double[cols.length];
        for (int j = 0; j < cols.length; j++) {
            m[j] = mean[cols[j]];
            s[j] = std[cols[j]];
        }
        return new ColumnScale(m, s, zeroCenter, max == Double.POSITIVE_INFINITY ? null : max, float32Steps);
    }

    private float scaled(int c, float x) {
        double centred = zeroCenter ? x - mean[c] : x;
        if (float32Steps) {
            centred = (float) centred;
        }
        double y = centred / std[c];
        if (y > max) {
            y = max;
        } else if (zeroCenter && y < -max) {
            y = -max;
        }
        return (float) y;
    }

    @Override
    public RowBlock apply(RowBlock block) {
        int[] indptr = block.indptr();
        int[] indices = block.indices();
        float[] values = block.values();
        if (!zeroCenter) {
            float[] out = new float[values.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = scaled(indices[i], values[i]);
            }
            return block.withValues(out);
        }
        int p = mean.length;
        int rows = block.nRows();
        int[] outIndptr = new int[rows + 1];
        int[] outIndices = new int[Math.multiplyExact(rows, p)];
        float[] out = new float[outIndices.length];
        for (int r = 0; r < rows; r++) {
            int base = r * p;
            outIndptr[r + 1] = base + p;
            System.arraycopy(columns, 0, outIndices, base, p);
            System.arraycopy(zeros, 0, out, base, p);
            for (int i = indptr[r]; i < indptr[r + 1]; i++) {
                out[base + indices[i]] = scaled(indices[i], values[i]);
            }
        }
        return RowBlock.of(block.blockIndex(), block.rowStart(), p, outIndptr, outIndices, out);
    }
}
