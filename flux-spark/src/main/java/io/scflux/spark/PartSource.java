/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.spark;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.ForwardingSource;
import io.scflux.core.Pass;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A matrix whose blocks Spark tasks computed and wrote to part files: read back block by block, in the plan they were
 * computed with, by the driver's writer. Shape, type and density are the computed matrix's.
 */
final class PartSource extends ForwardingSource {

    private final BlockPlan plan;
    private final Path[] parts;
    /** Block {@code b} lies in {@code parts[partOf[b]]} at {@code offsets[b]}. */
    private final int[] partOf;

    private final long[] offsets;

    PartSource(BlockSource computed, BlockPlan plan, Path[] parts, int[] partOf, long[] offsets) {
        super(computed);
        this.plan = plan;
        this.parts = parts;
        this.partOf = partOf;
        this.offsets = offsets;
    }

    /** None: the parts are a run's temporary files. */
    @Override
    public @Nullable Object cacheKey() {
        return null;
    }

    /** The plan the parts were computed with, whatever the target: they hold those blocks. */
    @Override
    public BlockPlan plan(PlanTarget target) {
        return plan;
    }

    /** As {@link #open()}: the parts are read, not the source they were computed from. */
    @Override
    public RowReader open(Pass pass) {
        return open();
    }

    @Override
    public RowReader open() {
        FileChannel[] open = new FileChannel[parts.length];
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                if (from != plan.rowStart(blockIndex) || to != plan.rowEnd(blockIndex)) {
                    throw new IllegalArgumentException("parts hold block " + blockIndex + " as rows ["
                            + plan.rowStart(blockIndex) + ", " + plan.rowEnd(blockIndex) + "), not [" + from + ", "
                            + to + ")");
                }
                return PartFiles.read(
                        channel(partOf[blockIndex]), offsets[blockIndex], blockIndex, parts[partOf[blockIndex]]);
            }

            private synchronized FileChannel channel(int part) {
                try {
                    if (open[part] == null) {
                        open[part] = FileChannel.open(parts[part]);
                    }
                    return open[part];
                } catch (IOException e) {
                    throw new UncheckedIOException("opening part " + parts[part], e);
                }
            }

            @Override
            public synchronized void close() {
                for (FileChannel c : open) {
                    try {
                        if (c != null) {
                            c.close();
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        };
    }

    @Override
    public String describe() {
        return "parts of " + delegate().describe();
    }
}
