/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.device;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.PlanTarget;

/**
 * How a source is cut for a device whose buffers may take {@code budget} bytes: the {@link BlockPlan} under the
 * largest target (at most the requested one) whose largest block's buffers fit, and those buffers' size. Every block
 * holds fewer than 2^31 entries, so its indices stay int32 on the device whatever the file's index type.
 */
public final class DevicePlan {

    /** Share of the cap given to the block buffers; the rest is for reductions' workspace (Gram, sums, loadings). */
    static final double BLOCK_SHARE = 0.5;

    private final BlockPlan plan;
    private final long budget;

    private DevicePlan(BlockPlan plan, long budget) {
        this.plan = plan;
        this.budget = budget;
    }

    /** The bytes of a cap the block buffers may take. */
    public static long blockBudget(long capBytes) {
        return (long) (capBytes * BLOCK_SHARE);
    }

    /**
     * The largest target, at most {@code requested}, whose bound on a block (its {@code chunkNnz} entries and
     * {@code maxRows} rows) fits {@code budget} bytes of buffers: the larger of the two halves until it does.
     *
     * @throws IllegalStateException when even a one-entry block does not fit
     */
    public static PlanTarget target(PlanTarget requested, long budget) {
        PlanTarget t = requested;
        while (DeviceBlocks.deviceBytes(t.maxRows(), t.chunkNnz()) > budget) {
            t = shrink(
                    t,
                    "device buffers for a single entry need " + DeviceBlocks.deviceBytes(1, 1)
                            + " bytes, more than the " + budget + " bytes allowed; raise --device-mem-mb");
        }
        return t;
    }

    /**
     * The plan of {@code source} for {@code budget} bytes of block buffers, starting from {@code requested}: the
     * target is shrunk until the largest block of the plan (a row over the chunk gets a block of its own) fits.
     *
     * @throws IllegalStateException when a single row does not fit the budget
     */
    public static DevicePlan of(BlockSource source, PlanTarget requested, long budget) {
        PlanTarget t = target(requested, budget);
        while (true) {
            BlockPlan p = source.plan(t);
            if (DeviceBlocks.deviceBytes(p.maxBlockRows(), p.maxBlockNnz()) <= budget) {
                return new DevicePlan(p, budget);
            }
            t = shrink(
                    t,
                    source.describe() + " has a row of " + p.maxBlockNnz() + " entries, whose device buffers ("
                            + DeviceBlocks.deviceBytes(1, p.maxBlockNnz()) + " bytes) exceed the " + budget
                            + " bytes allowed; raise --device-mem-mb");
        }
    }

    /** Halves the chunk or the rows of {@code t}, whichever is larger; {@code failure} when both are 1. */
    private static PlanTarget shrink(PlanTarget t, String failure) {
        if (t.chunkNnz() == 1 && t.maxRows() == 1) {
            throw new IllegalStateException(failure);
        }
        return t.chunkNnz() >= t.maxRows()
                ? new PlanTarget(t.chunkNnz() / 2, t.maxRows())
                : new PlanTarget(t.chunkNnz(), t.maxRows() / 2);
    }

    public BlockPlan plan() {
        return plan;
    }

    /** Entries of the largest block: what the reused buffers hold, always below 2^31. */
    public long maxBlockNnz() {
        return plan.maxBlockNnz();
    }

    public int maxBlockRows() {
        return plan.maxBlockRows();
    }

    /** Device bytes of the one set of block buffers this plan needs. */
    public long bufferBytes() {
        return DeviceBlocks.deviceBytes(maxBlockRows(), maxBlockNnz());
    }

    /** The bytes the buffers had to fit in. */
    public long budget() {
        return budget;
    }

    @Override
    public String toString() {
        return "DevicePlan[" + plan + ", buffers " + bufferBytes() + " of " + budget + " bytes]";
    }
}
