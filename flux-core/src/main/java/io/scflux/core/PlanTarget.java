package io.scflux.core;

/**
 * The constants a {@link BlockPlan} is computed from: about {@code chunkNnz} stored entries per block and at most
 * {@code maxRows} rows per block. Results depend on the plan, so they depend on these constants and never on threads.
 */
public record PlanTarget(long chunkNnz, int maxRows) implements java.io.Serializable {

    /**
     * 64 Ki nonzeros (256 KiB of indices, 256 KiB of values) per block by default: a block's arrays stay below half a
     * G1 region even under a 1 GiB heap (1 MiB regions), so they are ordinary young objects rather than humongous
     * ones, whose churn made G1 grow the heap with the run's length. Measured (pipeline, -Xmx1g, no cache): 200,000
     * cells 24.4 s / 518 MB and 1,000,000 cells 120 s / 632 MB, against 26.5 s / 612 MB and 111 s / 851 MB with 1 Mi.
     */
    public static final long DEFAULT_CHUNK_NNZ = 1L << 16;

    /** 64 Ki rows per block by default, so that very sparse data still splits. */
    public static final int DEFAULT_MAX_ROWS = 1 << 16;

    /** Largest chunk a block may target: its arrays stay well below Java's array limit. */
    public static final long MAX_CHUNK_NNZ = 1L << 30;

    public static final PlanTarget DEFAULT = new PlanTarget(DEFAULT_CHUNK_NNZ, DEFAULT_MAX_ROWS);

    public PlanTarget {
        if (chunkNnz < 1 || chunkNnz > MAX_CHUNK_NNZ) {
            throw new IllegalArgumentException("chunkNnz must be in [1, " + MAX_CHUNK_NNZ + "], got " + chunkNnz);
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1, got " + maxRows);
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
