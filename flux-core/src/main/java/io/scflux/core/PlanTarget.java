/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core;

/**
 * The constants a {@link BlockPlan} is computed from: about {@code chunkNnz} stored entries per block and at most
 * {@code maxRows} rows per block. Results depend on the plan, so they depend on these constants and never on threads.
 */
public record PlanTarget(long chunkNnz, int maxRows) implements java.io.Serializable {

    /**
     * 131,056 (2^17 - 16) nonzeros per block by default: a block's 4-byte indices or values, 524,240 bytes with the
     * array's header, stay just below half a G1 region under a 1 GiB heap (1 MiB regions), so they are ordinary young
     * objects, not humongous ones, whose churn makes G1 grow the heap with the run's length. Blocks of 64 Ki cost a
     * scheduling, a hand-off to the HDF5 thread and a partial per block twice as often. Measured at -Xmx1g on
     * 1,000,000 cells, against 64 Ki: preprocess 32.3 s / 434 MB against 36.4 s / 419 MB, pipeline 63.8 s / 502 MB
     * against 78.1 s / 510 MB; with humongous blocks of 256 Ki the same runs took 25-28 s and 64-67 s, but at 321-659
     * MB, varying from run to run.
     */
    public static final long DEFAULT_CHUNK_NNZ = (1L << 17) - 16;

    /** 64 Ki rows per block by default, so that very sparse data still splits. */
    public static final int DEFAULT_MAX_ROWS = 1 << 16;

    /** Largest chunk a block may target: its arrays stay well below Java's array limit. */
    public static final long MAX_CHUNK_NNZ = 1L << 30;

    public static final PlanTarget DEFAULT = new PlanTarget(DEFAULT_CHUNK_NNZ, DEFAULT_MAX_ROWS);

    public PlanTarget {
        if (chunkNnz < 1 || chunkNnz > MAX_CHUNK_NNZ) {
            throw new InvalidOptionException("chunkNnz must be in [1, " + MAX_CHUNK_NNZ + "], got " + chunkNnz);
        }
        if (maxRows < 1) {
            throw new InvalidOptionException("maxRows must be at least 1, got " + maxRows);
        }
    }

    public static PlanTarget ofChunkNnz(long chunkNnz) {
        return new PlanTarget(chunkNnz, DEFAULT_MAX_ROWS);
    }

    /** This target with blocks of at least {@code chunkNnz} nonzeros. */
    public PlanTarget atLeast(long chunkNnz) {
        return chunkNnz <= this.chunkNnz ? this : new PlanTarget(chunkNnz, maxRows);
    }

    public PlanTarget withMaxRows(int rows) {
        return new PlanTarget(chunkNnz, rows);
    }
}
