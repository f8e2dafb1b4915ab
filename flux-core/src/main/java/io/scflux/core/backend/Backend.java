/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.backend;

import io.scflux.core.MemoryAccount;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Stage;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where the arithmetic on row blocks runs: the JVM heap ({@link HostBackend}) or a device. The operators call these
 * kernels and keep the determinism rule themselves: every kernel computes the partial of one block, and the partials
 * are merged in block order by the caller.
 *
 * <p>A backend that is not the host may be backed by device buffers; it accounts them in {@link #memory()}. Blocks
 * may stay on it between operations (a {@link ResidentBlock}): {@link #upload} puts a heap block there,
 * {@link #download} brings one back, and {@link #reindex} works on it where it is. The other kernels take heap blocks.
 */
public interface Backend {

    /** A short name for messages and statistics: {@code host}, {@code cuda}. */
    String name();

    /** True for the JVM heap, whose kernels are the reference the others are checked against. */
    boolean isHost();

    /** The bytes this backend holds for its buffers, under its cap. */
    MemoryAccount memory();

    /**
     * The plan target to cut blocks with: {@code requested}, or a smaller one whose blocks fit this backend's
     * buffers under its cap. The host takes any block.
     */
    default PlanTarget target(PlanTarget requested) {
        return requested;
    }

    /**
     * {@code block} (on the heap) as a block resident on this backend, the same rows and entries; the host, whose
     * blocks are on the heap, returns it as it is.
     *
     * @throws IllegalArgumentException when the block is resident on another backend
     */
    RowBlock upload(RowBlock block);

    /**
     * {@code block} with its arrays on the heap: a block resident on this backend is copied down and its arrays freed
     * (the block is consumed); a heap block is returned as it is.
     *
     * @throws IllegalArgumentException when the block is resident on another backend
     */
    RowBlock download(RowBlock block);

    /**
     * {@code block}'s columns re-indexed by {@code map} onto its {@link ColumnMap#nOut()} columns, as anndata's
     * {@code concat} places an input's columns: entries in dropped columns removed, {@code fill} at every column the
     * input lacks unless it is zero, each row sorted by column. A resident block is re-indexed where it is (and
     * consumed), a heap block on the heap; the result is on the same backend, the same bits as
     * {@link ColumnMap#reindex} gives on the host.
     */
    RowBlock reindex(RowBlock block, ColumnMap map, float fill);

    /**
     * normalize_total's division by the row's factor ({@code factors} indexed by global row, zero taken as one)
     * followed by {@code log1p} in float32 ({@code single}) or float64, divided by {@code ln(base)} (null: natural).
     */
    Stage normalizeLog1p(double[] factors, boolean single, @Nullable Double base);

    /**
     * Adds each column's sum and sum of squares over the block into {@code sum[c]} and {@code squares[c]} (float64),
     * squares taken in float32 when {@code float32Squares}: the partial of one block for HVG statistics and scale.
     */
    void columnSums(RowBlock block, boolean float32Squares, double[] sum, double[] squares);

    /**
     * Adds the Gram matrix {@code X^T X} of {@code blocks}' rows, in order, over their {@code p = nCols} columns (the
     * selected columns: a column subset is applied before) into {@code upper}, the upper triangle packed by rows
     * (entry (a, b), {@code b >= a}, at {@link #gramIndex}), and their column sums into {@code columnSums}; float64.
     * Several blocks at once let a kernel reach the triangle once for all their rows.
     */
    void gram(List<RowBlock> blocks, double[] upper, double[] columnSums);

    /**
     * Each row's coordinates on {@code k} components: {@code x V - meanV} in float64 rounded to float32, with
     * {@code loadings} row-major {@code [column * k + j]}; a dense block of {@code k} columns.
     */
    RowBlock project(RowBlock block, double[] loadings, int k, double[] meanV);

    /** Position of Gram entry (a, b), {@code a <= b < p}, in the packed upper triangle. */
    static int gramIndex(int a, int b, int p) {
        return (int) ((long) a * p - (long) a * (a + 1) / 2 + b);
    }
}
