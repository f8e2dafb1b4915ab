/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.pca;

import io.scflux.core.Backend;
import io.scflux.core.Reducer;
import io.scflux.core.RowBlock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import org.jspecify.annotations.Nullable;

/**
 * The Gram matrix {@code X^T X} (its upper triangle, packed by rows) and the column sums of a matrix, in float64:
 * one pass, each block added into its segment's partial by the backend's {@link GramKernel}, in the
 * {@link Reducer}'s order. Products of float32 values are exact in float64. On the host a segment's blocks are
 * gathered into tiles of about {@link #TILE_NNZ} entries before the kernel adds them: the kernel's cost is in reaching
 * the triangle, which a tile of many rows reaches once where small blocks (tens of rows) reach it each; every entry
 * still gets its terms in row order, so the bits do not depend on the tiling. A partial is {@code p (p + 1) / 2} doubles
 * (16 MB for 2,000 genes), so merged partials are kept (a few) and cleared for the next segments rather than
 * allocated each time: as many exist as segments are in flight, whatever the number of blocks.
 */
final class Gram implements Reducer<Gram.Sums> {

    /** Most columns whose full covariance matrix fits a Java array. */
    static final int MAX_COLUMNS = 46_340;

    private static final int SPARE = 8;
    /** Blocks per segment of this reducer's merge order. */
    static final int SEGMENT = 128;
    /** Entries gathered before the host kernel runs (8 MiB of indices and values). */
    static final int TILE_NNZ = 1 << 20;

    private final int p;
    /** {@code rowBase[a] + b} is the packed position of entry (a, b), b >= a. */
    private final int[] rowBase;

    private final Backend backend;
    /**
     * Merged partials, cleared again for the next folds and segments; made where the reducer runs, never shipped. At
     * most {@link #SPARE} are kept: enough for the blocks in flight, and a merge that only merges (an engine's driver)
     * does not keep every partial it received.
     */
    private transient volatile @Nullable Queue<Sums> spare;

    Gram(int p, Backend backend) {
        if (p > MAX_COLUMNS) {
            throw new IllegalArgumentException(
                    "a Gram matrix of " + p + " columns does not fit in memory (at most " + MAX_COLUMNS + ")");
        }
        this.p = p;
        this.backend = backend;
        rowBase = new int[p];
        for (int a = 0; a < p; a++) {
            rowBase[a] = GramKernel.gramIndex(a, 0, p);
        }
    }

    /** The sums of a run of blocks. */
    static final class Sums implements java.io.Serializable {
        private final double[] upper;
        private final double[] columnSums;
        /** Host blocks folded in but not yet added: a tile being gathered, empty whenever the sums leave a segment. */
        private transient @Nullable List<RowBlock> tile;

        private transient long tileNnz;

        private Sums(int p) {
            upper = new double[(int) ((long) p * (p + 1) / 2)];
            columnSums = new double[p];
        }

        private Sums cleared() {
            Arrays.fill(upper, 0);
            Arrays.fill(columnSums, 0);
            return this;
        }

        private List<RowBlock> tile() {
            if (tile == null) {
                tile = new ArrayList<>();
            }
            return tile;
        }

        private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            if (tile != null && !tile.isEmpty()) {
                throw new IllegalStateException("Gram sums shipped with " + tile.size() + " blocks not added");
            }
            out.defaultWriteObject();
        }
    }

    @Override
    public Sums identity() {
        Sums kept = spare().poll();
        return kept == null ? new Sums(p) : kept.cleared();
    }

    @Override
    public Sums fold(RowBlock block) {
        return foldInto(identity(), block);
    }

    @Override
    public Sums foldInto(Sums acc, RowBlock block) {
        if (backend.kernel(GramKernel.class).isPresent() || block.nnz() >= TILE_NNZ) {
            add(acc);
            HostGram.on(backend).gram(List.of(block), acc.upper, acc.columnSums);
        } else {
            acc.tile().add(block);
            acc.tileNnz += block.nnz();
            if (acc.tileNnz >= TILE_NNZ) {
                add(acc);
            }
        }
        return acc;
    }

    /** Adds the tile gathered in {@code s}, its blocks' rows in order as one block, and empties it. */
    private void add(Sums s) {
        List<RowBlock> blocks = s.tile();
        if (blocks.isEmpty()) {
            return;
        }
        HostGram.on(backend).gram(blocks, s.upper, s.columnSums);
        blocks.clear();
        s.tileNnz = 0;
    }

    /**
     * Segments of {@link #SEGMENT} blocks: each segment clears, sweeps and merges a partial of {@code 8 p^2 / 2} bytes
     * (16 MB for 2,000 genes), which at 16 blocks of a few tens of rows cost more than the products themselves.
     */
    @Override
    public int segmentBlocks() {
        return SEGMENT;
    }

    /** Adds the segment's last tile on its worker. */
    @Override
    public Sums segmentDone(Sums segment) {
        add(segment);
        return segment;
    }

    @Override
    public Sums merge(Sums earlier, Sums later) {
        add(earlier);
        add(later);
        for (int i = 0; i < earlier.upper.length; i++) {
            earlier.upper[i] += later.upper[i];
        }
        for (int c = 0; c < p; c++) {
            earlier.columnSums[c] += later.columnSums[c];
        }
        spare().offer(later);
        return earlier;
    }

    private Queue<Sums> spare() {
        Queue<Sums> q = spare;
        if (q == null) {
            synchronized (this) {
                q = spare;
                if (q == null) {
                    spare = q = new ArrayBlockingQueue<>(SPARE);
                }
            }
        }
        return q;
    }

    /**
     * The covariance matrix of the {@code n} rows summed into {@code s} (row-major, full), as scikit-learn's
     * covariance_eigh solver forms it: {@code (X^T X - n * mean mean^T) / (n - 1)}; and the means, into {@code mean}.
     */
    double[] covariance(Sums s, long n, double[] mean) {
        add(s);
        for (int c = 0; c < p; c++) {
            mean[c] = s.columnSums[c] / n;
        }
        double[] cov = new double[p * p];
        for (int a = 0; a < p; a++) {
            for (int b = a; b < p; b++) {
                double v = (s.upper[rowBase[a] + b] - n * mean[a] * mean[b]) / (n - 1);
                cov[a * p + b] = v;
                cov[b * p + a] = v;
            }
        }
        return cov;
    }
}
