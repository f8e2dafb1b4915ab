/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * A source seen through a {@link Stage}: its blocks are the base's blocks mapped by the stage as they are read, never
 * materialized. Staging a staged source fuses the two stages into one function per block. The stage may change the
 * values and the columns (a column selection), not the rows.
 */
public final class StagedSource implements DerivedSource, java.io.Serializable {

    private final BlockSource base;
    private final Stage stage;
    private final int nCols;
    private final DType dtype;
    private final boolean dense;

    private StagedSource(BlockSource base, Stage stage, int nCols, DType dtype, boolean dense) {
        this.base = base;
        this.stage = stage;
        this.nCols = nCols;
        this.dtype = dtype;
        this.dense = dense;
    }

    /** {@code base} through {@code stage}, which keeps the columns; values are float32 from then on. */
    public static StagedSource of(BlockSource base, Stage stage) {
        return of(base, stage, base.nCols(), DType.FLOAT32);
    }

    /** {@code base} through {@code stage}, which yields blocks of {@code nCols} columns of values of {@code dtype}. */
    public static StagedSource of(BlockSource base, Stage stage, int nCols, DType dtype) {
        return fuse(base, stage, nCols, dtype, false);
    }

    /**
     * {@code base} through a stage that fills rows (scaling with zero-centring): every output row holds up to
     * {@code nCols} entries, so the plan weighs rows by {@code nCols}, and the result is dense data.
     */
    public static StagedSource densifying(BlockSource base, Stage stage, int nCols, DType dtype) {
        return fuse(base, stage, nCols, dtype, true);
    }

    private static StagedSource fuse(BlockSource base, Stage stage, int nCols, DType dtype, boolean dense) {
        Objects.requireNonNull(stage, "stage");
        if (base instanceof StagedSource s) {
            return new StagedSource(s.base, s.stage.then(stage), nCols, dtype, dense || s.dense);
        }
        Objects.requireNonNull(base, "base");
        return new StagedSource(base, stage, nCols, dtype, dense || base.isDense());
    }

    /** The source the stage reads (never itself a staged source). */
    @Override
    public BlockSource base() {
        return base;
    }

    /** The stage applied to every block (all fused stages, in order). */
    public Stage stage() {
        return stage;
    }

    @Override
    public long nRows() {
        return base.nRows();
    }

    @Override
    public int nCols() {
        return nCols;
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    @Override
    public boolean isDense() {
        return dense;
    }

    @Override
    public Set<Path> files() {
        return base.files();
    }

    /**
     * The base's counts (exact when the stage keeps zeros zero and the columns, an upper bound when it drops
     * entries); when the stage fills rows, the larger of the base's count and {@code nCols}, which bounds both what a
     * block reads and what it holds.
     */
    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        base.rowNnz(rowFrom, count, out);
        if (dense) {
            for (int i = 0; i < count; i++) {
                out[i] = Math.max(out[i], nCols);
            }
        }
    }

    /**
     * The base's plan when the stage never adds entries to a row (the base's blocks bound the staged ones, and
     * cached plans are shared); when it fills rows, a plan weighing each row by {@link #rowNnz}, so that neither the
     * rows read nor the dense rows made exceed the target.
     */
    @Override
    public BlockPlan plan(PlanTarget target) {
        return dense ? BlockPlan.of(nRows(), this::rowNnz, target) : base.plan(target);
    }

    @Override
    public RowReader open() {
        return staged(base.open());
    }

    @Override
    public RowReader open(Pass pass) {
        return staged(base.open(pass));
    }

    /** {@code r}, the base's, the stage applied to each block it reads. */
    private RowReader staged(RowReader r) {
        return RowReader.over(r, (blockIndex, from, to) -> stage.apply(r.read(blockIndex, from, to)));
    }

    @Override
    public String describe() {
        return "staged " + base.describe();
    }
}
